/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import type { BenchmarkOutcome } from '../benchmarks/types';
import { machineInfo, type MachineInfo } from '../lib/machine';
import { printSection } from '../lib/table';
import { resultsMarkdown } from './markdown';
import type { ResultEntry } from './results';
import { BENCH_DIR, commandLine, saveResults } from './results';

/** Stores the new entries in results.json, then regenerates RESULTS.md from all it holds. */
export function writeResults(entries: ResultEntry[]): void {
	fs.writeFileSync(path.join(BENCH_DIR, 'RESULTS.md'), resultsMarkdown(saveResults(entries)));
}

/** Prints one benchmark's outcome and records it as that benchmark's latest run. */
export function recordRun(
	name: string,
	outcome: BenchmarkOutcome,
	run: { started: number; command?: string; machine?: MachineInfo; source?: string },
): void {
	const durationSec = Math.round((Date.now() - run.started) / 100) / 10;
	printSection(`${outcome.title} (${durationSec} s)`, outcome.rows, outcome.checks);
	for (const note of outcome.notes ?? []) console.log(`- ${note}`);
	writeResults([
		{
			name,
			ranAt: new Date(run.started).toISOString(),
			command: run.command ?? commandLine(`bench/${name}.ts`),
			durationSec,
			machine: run.machine ?? machineInfo(),
			source: run.source ?? 'dist',
			outcome,
		},
	]);
}
