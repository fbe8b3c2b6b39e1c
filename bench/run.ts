/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * The benchmarks: `npx tsx bench/run.ts [upsert] [confirm] [wait] [catalog] [sync] [roster] [interactive] [xapi] [overhead] [pace]` (all but pace when none is named).
 * Prints a table per benchmark with PASS/MISS per target (targets never fail the run), then
 * writes bench/results.json and regenerates bench/RESULTS.md and bench/throughput.svg.
 */
import { runCatalogBenchmark } from './benchmarks/catalog';
import { runConfirmBenchmark } from './benchmarks/confirm';
import { runInteractiveBenchmark } from './benchmarks/interactive';
import { runOverheadBenchmark } from './benchmarks/overhead';
import { runPaceBenchmark } from './benchmarks/pace';
import { runSyncBenchmark } from './benchmarks/sync';
import { runRosterBenchmark } from './benchmarks/roster';
import type { BenchmarkName, BenchmarkOutcome } from './benchmarks/types';
import { BENCHMARK_NAMES } from './benchmarks/types';
import { runUpsertBenchmark } from './benchmarks/upsert';
import { runWaitBenchmark } from './benchmarks/wait';
import { runXapiBenchmark } from './benchmarks/xapi';
import { machineInfo } from './lib/machine';
import { packageSource } from '../harness/source';
import { printSection } from './lib/table';
import { warmUp } from './lib/warmup';
import type { ResultEntry } from './report/results';
import { commandLine } from './report/results';
import { writeResults } from './report/write';
import type { PackageSource } from '../harness/nodeTypes';

const RUNNERS: Record<BenchmarkName, (source: PackageSource) => Promise<BenchmarkOutcome>> = {
	upsert: runUpsertBenchmark,
	confirm: runConfirmBenchmark,
	wait: runWaitBenchmark,
	catalog: runCatalogBenchmark,
	sync: runSyncBenchmark,
	roster: runRosterBenchmark,
	interactive: runInteractiveBenchmark,
	xapi: runXapiBenchmark,
	overhead: runOverheadBenchmark,
	pace: runPaceBenchmark,
};

function chosenBenchmarks(args: string[]): BenchmarkName[] {
	const unknown = args.filter((arg) => !(BENCHMARK_NAMES as readonly string[]).includes(arg));
	if (unknown.length > 0)
		throw new Error(
			`Unknown benchmark(s): ${unknown.join(', ')}. Choose from: ${BENCHMARK_NAMES.join(', ')}`,
		);
	// pace (one process on every limiter shape) takes hours: only when named.
	return args.length === 0
		? BENCHMARK_NAMES.filter((name) => name !== 'pace')
		: BENCHMARK_NAMES.filter((name) => args.includes(name));
}

async function main(): Promise<void> {
	const names = chosenBenchmarks(process.argv.slice(2));
	const source = packageSource();
	const machine = machineInfo();
	const command = commandLine('bench/run.ts');
	const started = Date.now();
	console.log(
		`Benchmarks: ${names.join(', ')} (package from ${source}; load average ${machine.loadAverage})`,
	);
	if (names.some((name) => name === 'upsert' || name === 'overhead' || name === 'pace')) {
		const warmStarted = Date.now();
		await warmUp(source);
		console.log(`  warm-up: ${((Date.now() - warmStarted) / 1000).toFixed(1)} s`);
	}
	const entries: ResultEntry[] = [];
	for (const name of names) {
		const benchmarkStarted = Date.now();
		const outcome = await RUNNERS[name](source);
		const durationSec = Math.round((Date.now() - benchmarkStarted) / 100) / 10;
		printSection(`${outcome.title} (${durationSec} s)`, outcome.rows, outcome.checks);
		for (const note of outcome.notes ?? []) console.log(`- ${note}`);
		entries.push({
			name,
			ranAt: new Date(benchmarkStarted).toISOString(),
			command,
			durationSec,
			machine,
			source,
			outcome,
		});
	}
	writeResults(entries);
	console.log(
		`\nWrote bench/results.json, bench/RESULTS.md and bench/throughput.svg in ${((Date.now() - started) / 1000).toFixed(0)} s in all.`,
	);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
