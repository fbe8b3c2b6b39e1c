/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * One run of bench/benchmarks/pace.ts, for its baseline: `node --require bench/lib/otherDist.cjs
 * --import tsx bench/paceOne.ts '{"shape":…,"retryAfter":…,"latencyMs":…,"items":…}'` with
 * BENCH_OTHER_DIST set. Prints the run as JSON on its last line.
 */
import { paceRun, type PaceVariant } from './benchmarks/pace';
import { warmUp } from './lib/warmup';

async function main(): Promise<void> {
	const { latencyMs, items, ...variant } = JSON.parse(process.argv[2]) as PaceVariant & {
		latencyMs: number;
		items: number;
	};
	await warmUp('dist');
	const run = await paceRun(variant, latencyMs, items, 'dist');
	console.log(JSON.stringify(run));
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
