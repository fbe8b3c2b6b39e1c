/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import type { BenchmarkOutcome } from '../benchmarks/types';
import type { MachineInfo } from '../lib/machine';

export const BENCH_DIR = path.resolve(__dirname, '..');
export const RESULTS_JSON = path.join(BENCH_DIR, 'results.json');

/** One benchmark's latest figures, with how and where they were taken. */
export interface ResultEntry {
	name: string;
	ranAt: string;
	command: string;
	durationSec: number;
	machine: MachineInfo;
	/** dist: the built package; source: the TypeScript sources. */
	source: string;
	outcome: BenchmarkOutcome;
}

export interface ResultsFile {
	entries: Record<string, ResultEntry>;
}

export function loadResults(): ResultsFile {
	try {
		const parsed = JSON.parse(fs.readFileSync(RESULTS_JSON, 'utf8')) as ResultsFile;
		return parsed && typeof parsed.entries === 'object' ? parsed : { entries: {} };
	} catch {
		return { entries: {} };
	}
}

/**
 * Replaces the entries that ran now and keeps the others, so a subset run leaves the rest as they
 * were: one entry per benchmark of bench/benchmarks.ts, its latest run (a variant such as
 * "queue <shape>" replaces "queue").
 */
export function saveResults(entries: ResultEntry[]): ResultsFile {
	const results = loadResults();
	for (const entry of entries) results.entries[entry.name.split(' ')[0]] = entry;
	fs.writeFileSync(RESULTS_JSON, `${JSON.stringify(results, null, '\t')}\n`);
	return results;
}

/**
 * The command line as typed, e.g. `npx tsx bench/run.ts upsert`, with the environment knobs that
 * were set (the variables named with one of `knobPrefixes`), quoted where a shell needs it.
 */
export function commandLine(
	script: string,
	knobPrefixes = ['BENCH_', 'SOAK_SIZE'],
	args = process.argv.slice(2),
): string {
	const quoted = (word: string) => (/^[\w./:,=+-]*$/.test(word) ? word : `'${word}'`);
	const knobs = Object.entries(process.env)
		.filter(([name]) => knobPrefixes.some((prefix) => name.startsWith(prefix)))
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, value]) => `${name}=${quoted(value ?? '')}`);
	return [...knobs, 'npx tsx', script, ...args.map(quoted)].join(' ');
}
