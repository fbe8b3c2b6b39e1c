/**
 * Every benchmark, once: its name, the question it answers, the command that runs it and where
 * its figures are cited. `npm run bench -- <name>` runs any of them (bench/run.ts); bench/README.md's
 * table is generated from this list (`npx tsx bench/run.ts --readme`).
 */
import type { PackageSource } from '../harness/nodeTypes';
import type { BenchmarkOutcome } from './benchmarks/types';

export interface Benchmark {
	name: string;
	question: string;
	/** What to type. Benchmarks without `run` are scripts of their own: bench/run.ts runs this. */
	command: string;
	cited: string;
	/** Loaded only when the benchmark runs inside bench/run.ts. */
	run?: () => Promise<(source: PackageSource) => Promise<BenchmarkOutcome>>;
}

const inRunner = (name: string) => `npx tsx bench/run.ts ${name}`;
const RESULTS = 'bench/RESULTS.md';

export const BENCHMARKS: Benchmark[] = [
	{
		name: 'sync',
		question:
			"Sync Catalog's requests on the first and second night at M = 5,000, against the upsert path, and its remembered state",
		command: inRunner('sync'),
		cited: `${RESULTS}, docs/sync-catalog.md`,
		run: () => import('./benchmarks/sync').then((m) => m.runSyncBenchmark),
	},
	{
		name: 'roster',
		question:
			"Sync Assignments' requests per night on a 60,000-pair roster, and its remembered state",
		command: inRunner('roster'),
		cited: `${RESULTS}, docs/sync-assignments.md`,
		run: () => import('./benchmarks/roster').then((m) => m.runRosterBenchmark),
	},
	{
		name: 'overheadN8n',
		question:
			'time per item in a real n8n 2.x, package against HTTP Request, from n8n’s own execution time (about 3 minutes)',
		command: 'npx n8n-node build && npx tsx bench/overheadN8n.ts',
		cited: RESULTS,
	},
	{
		name: 'pace',
		question: "one process's pace in real n8n on every limiter, cold start and stale-token start",
		command: 'npx n8n-node build && npx tsx bench/paceN8n.ts',
		cited: `${RESULTS}, docs/security-and-limits.md`,
	},
	{
		name: 'hires',
		question:
			"HR hires beside a bulk run in real n8n: each hire's time to its confirmation, what each of its requests waited for, the client's share of the ceiling (about 4 minutes)",
		command: 'npx n8n-node build && npx tsx bench/hiresN8n.ts',
		cited: `${RESULTS}, docs/security-and-limits.md`,
	},
	{
		name: 'unattended',
		question:
			'Sync Assignments at real size in a real n8n: peak memory beside Edit Fields, the saved execution, requests per night (about 50 minutes)',
		command: 'npx n8n-node build && npx tsx bench/unattended.ts',
		cited: `${RESULTS}, docs/unattended-syncs.md`,
	},
	{
		name: 'xapiPush',
		question:
			'statements through the xAPI push endpoint with OAuth2 at the default settings: stored, 429s, share of the 10-per-10-s budget (about 210 s)',
		command: 'npx n8n-node build && npx tsx bench/xapiPush.ts',
		cited: `${RESULTS}, docs/xapi.md`,
	},
	{
		name: 'queue',
		question:
			'n8n in queue mode (main, workers, Redis, Postgres) at 300/min: courses lost, 429s, share of the ceiling',
		command: 'npx n8n-node build && npx tsx bench/queue.ts',
		cited: `${RESULTS}, docs/install.md`,
	},
];
