/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * What a sync's memory costs to open and save at real size: a 60,000-pair roster (20,000 learners
 * × 3 courses), opened from a copy of the static data as n8n hands it to an execution, then saved.
 * `npx tsx bench/memoryOpen.ts [an older checkout]`: the older checkout's memory.ts runs in the
 * same process on the same data, alternating, and the ratio is printed (medians of 7 each).
 */
import path from 'node:path';

import * as current from '../nodes/shared/sync/memory';

type MemoryModule = typeof current;

const LEARNERS = 20_000;
const COURSES = ['compliance-101', 'security-awareness', 'onboarding-essentials'];
const ROUNDS = 7;
const place = { owner: 'bench', slot: 'syncedAssignments', scope: 'client', grouped: true };

function savedRoster(memory: MemoryModule): string {
	const node: Record<string, unknown> = {};
	const opened = memory.openMemory({ getWorkflowStaticData: () => node as never }, place);
	for (let n = 0; n < LEARNERS; n++) {
		for (const course of COURSES) {
			opened.entries.set(memory.memberKey(`learner${n}@example.com`, course), `d${n % 997}`);
		}
	}
	opened.save();
	return JSON.stringify(node);
}

function timed(memory: MemoryModule, stored: string): { openMs: number; saveMs: number } {
	const copy = JSON.parse(stored) as Record<string, unknown>;
	let at = performance.now();
	const opened = memory.openMemory({ getWorkflowStaticData: () => copy as never }, place);
	const openMs = performance.now() - at;
	if (opened.entries.size !== LEARNERS * COURSES.length) throw new Error('memory not read whole');
	at = performance.now();
	opened.save();
	return { openMs, saveMs: performance.now() - at };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

function main(): void {
	const older = process.argv[2];
	const trees: Array<[string, MemoryModule]> = [['this tree', current]];
	if (older) {
		const module = require(path.resolve(older, 'nodes/shared/sync/memory')) as MemoryModule;
		trees.push([older, module]);
	}
	const stored = savedRoster(current);
	console.log(`${LEARNERS * COURSES.length} pairs, ${stored.length} bytes of static data`);
	const times = trees.map(() => ({ open: [] as number[], save: [] as number[] }));
	for (let round = 0; round < ROUNDS; round++) {
		trees.forEach(([, module], i) => {
			const { openMs, saveMs } = timed(module, stored);
			times[i].open.push(openMs);
			times[i].save.push(saveMs);
		});
	}
	console.log('| tree | open ms (median) | save ms (median) | open + save, ratio to the first |');
	console.log('| --- | --- | --- | --- |');
	const totals = times.map((t) => median(t.open) + median(t.save));
	trees.forEach(([label], i) => {
		console.log(
			`| ${label} | ${median(times[i].open).toFixed(1)} | ${median(times[i].save).toFixed(1)} | ${(totals[i] / totals[0]).toFixed(2)} |`,
		);
	});
}

main();
