/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * What a sync's memory costs to open and save at real size: the 60,000-pair roster of
 * benchmarks/stores.ts, opened from a copy of the static data as n8n hands it to an execution,
 * then saved. `npx tsx bench/memoryOpen.ts [an older checkout]`: the older checkout's memory.ts
 * runs in the same process on the same data, alternating, and the ratio is printed (medians of 7).
 */
import path from 'node:path';

import * as current from '../nodes/shared/sync/memory';
import { ROSTER_MEMORY, savedRosterMemory } from './benchmarks/stores';

type MemoryModule = typeof current;

const ROUNDS = 7;

function timed(memory: MemoryModule, stored: string, pairs: number) {
	const copy = JSON.parse(stored) as Record<string, unknown>;
	let at = performance.now();
	const opened = memory.openMemory({ getWorkflowStaticData: () => copy as never }, ROSTER_MEMORY);
	const openMs = performance.now() - at;
	if (opened.entries.size !== pairs) throw new Error('memory not read whole');
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
	const { entries, nodeData } = savedRosterMemory();
	const stored = JSON.stringify(nodeData);
	console.log(`${entries.size} pairs, ${stored.length} bytes of static data`);
	const times = trees.map(() => ({ open: [] as number[], save: [] as number[] }));
	for (let round = 0; round < ROUNDS; round++) {
		trees.forEach(([, module], i) => {
			const { openMs, saveMs } = timed(module, stored, entries.size);
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
