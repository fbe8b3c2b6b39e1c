/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * One n8n process on every limiter shape the sandbox offers (issue 39): 360 confirmed course
 * upserts at 50, 200 and 400 ms latency, and HR webhooks beside a bulk run, on each shape with
 * and without Retry-After. With BENCH_PACE_BASELINE_DIST (another build's dist/, e.g. main's),
 * each upsert run is repeated right after with that build, in a child process (bench/paceOne.ts),
 * so that the comparison comes from the same run.
 *
 * Knobs: BENCH_PACE_SHAPES (all), BENCH_PACE_RETRY_AFTER (both | on | off), BENCH_PACE_LATENCIES
 * (50,200,400), BENCH_PACE_ITEMS (360), BENCH_PACE_WEBHOOK_EXECUTIONS (4: the bulk's executions
 * beside the webhooks; 0 skips them), BENCH_PACE_BASELINE_DIST, BENCH_PACE_BASELINE_LABEL.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { createCredentialsHelper } from '../../harness/engine';
import type { PackageSource } from '../../harness/nodeTypes';
import { THROTTLE_SHAPES, type ThrottleShape } from '../../sandbox/throttle';
import { limiterLabel } from '../lib/limiter';
import { LMS_CREDENTIAL, lmsCredentialData } from '../../harness/nodes';
import { startBenchSandbox } from '../lib/sandboxHandle';
import { REPO_ROOT } from '../../harness/source';
import { check, round, type TargetCheck } from '../lib/stats';
import type { Row } from '../lib/table';
import { fetchToken } from '../lib/warmup';
import {
	INTERACTIVE_SANDBOX,
	withOnboardingCourse,
	scenario as beside,
	type Scenario as Beside,
} from './interactive';
import type { BenchmarkOutcome } from './types';
import { runContender, type UpsertRun } from './upsert';

const RATE_PER_MIN = 300;
const TARGET_RATIO = 0.98;
const WEBHOOK_LIMIT_MS = 10_000;

export interface PaceVariant {
	shape: ThrottleShape;
	retryAfter: boolean;
}

export const variantLabel = ({ shape, retryAfter }: PaceVariant) => limiterLabel(shape, retryAfter);

function list(name: string, fallback: string): string[] {
	return (process.env[name] || fallback)
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}

export function chosenVariants(shapesKnob: string, retryAfterKnob: string): PaceVariant[] {
	const shapes = list(shapesKnob, THROTTLE_SHAPES.join(',')) as ThrottleShape[];
	const unknown = shapes.filter((shape) => !THROTTLE_SHAPES.includes(shape));
	if (unknown.length > 0)
		throw new Error(
			`${shapesKnob}: unknown ${unknown.join(', ')} (choose from ${THROTTLE_SHAPES.join(', ')})`,
		);
	const told = { both: [true, false], on: [true], off: [false] }[
		process.env[retryAfterKnob] || 'both'
	];
	if (!told) throw new Error(`${retryAfterKnob} must be both, on or off`);
	return shapes.flatMap((shape) => told.map((retryAfter) => ({ shape, retryAfter })));
}

/** 360 confirmed upserts (Wait for Completion on) from one process, on a fresh sandbox of that shape. */
export async function paceRun(
	variant: PaceVariant,
	latencyMs: number,
	items: number,
	source: PackageSource,
): Promise<UpsertRun> {
	const sandbox = await startBenchSandbox({
		latencyMs,
		rateLimitPerMinute: RATE_PER_MIN,
		transactionDelayMs: 0,
		clientId: `bench-pace-${variant.shape}-${variant.retryAfter}-${latencyMs}`,
		throttleShape: variant.shape,
		throttleRetryAfter: variant.retryAfter,
	});
	try {
		const helper = createCredentialsHelper(
			{ [LMS_CREDENTIAL]: lmsCredentialData(sandbox, RATE_PER_MIN) },
			source,
		);
		await fetchToken(source, helper);
		return await runContender(
			sandbox,
			{ latencyMs, requestsPerMinute: RATE_PER_MIN, items, contenders: ['package'] },
			'package',
			source,
			helper,
		);
	} finally {
		await sandbox.close();
	}
}

/** The same run with another build (bench/paceOne.ts in a child process, its dist/ swapped in). */
function baselineRun(
	dist: string,
	variant: PaceVariant,
	latencyMs: number,
	items: number,
): Promise<UpsertRun> {
	return new Promise((resolve, reject) => {
		const args = [
			'--require',
			path.join(REPO_ROOT, 'bench', 'lib', 'otherDist.cjs'),
			'--import',
			'tsx',
			path.join(REPO_ROOT, 'bench', 'paceOne.ts'),
			JSON.stringify({ ...variant, latencyMs, items }),
		];
		const child = spawn(process.execPath, args, {
			cwd: REPO_ROOT,
			env: { ...process.env, BENCH_OTHER_DIST: dist },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let output = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		child.on('error', reject);
		child.on('exit', (code) => {
			const last = output.trim().split('\n').pop() ?? '';
			if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as UpsertRun);
			else
				reject(
					new Error(`bench/paceOne.ts with ${dist} exited with ${code}: ${output.slice(-500)}`),
				);
		});
	});
}

/** HR webhooks beside a bulk run in `executions` executions, on that shape. */
async function webhooksBeside(
	variant: PaceVariant,
	executions: number,
	source: PackageSource,
): Promise<Beside> {
	const sandbox = await startBenchSandbox({
		...INTERACTIVE_SANDBOX,
		clientId: `bench-pace-hr-${variant.shape}-${variant.retryAfter}`,
		throttleShape: variant.shape,
		throttleRetryAfter: variant.retryAfter,
	});
	try {
		const helper = await withOnboardingCourse(sandbox, source);
		await sandbox.reset();
		return await beside(
			executions,
			sandbox,
			source,
			helper,
			`pace-${variant.shape}-${variant.retryAfter}`,
		);
	} finally {
		await sandbox.close();
	}
}

export async function runPaceBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	const variants = chosenVariants('BENCH_PACE_SHAPES', 'BENCH_PACE_RETRY_AFTER');
	const latencies = list('BENCH_PACE_LATENCIES', '50,200,400').map(Number);
	const items = Number(process.env.BENCH_PACE_ITEMS ?? 360);
	const executions = Number(process.env.BENCH_PACE_WEBHOOK_EXECUTIONS ?? 4);
	const baselineDist = process.env.BENCH_PACE_BASELINE_DIST;
	const baselineLabel = process.env.BENCH_PACE_BASELINE_LABEL ?? baselineDist ?? '';
	const rows: Row[] = [];
	const checks: TargetCheck[] = [];
	const runs: Array<{ variant: PaceVariant; run: UpsertRun; baseline?: UpsertRun }> = [];
	const hooks: Array<{ variant: PaceVariant; result: Beside }> = [];
	for (const variant of variants) {
		for (const latencyMs of latencies) {
			const run = await paceRun(variant, latencyMs, items, source);
			const baseline = baselineDist
				? await baselineRun(baselineDist, variant, latencyMs, items)
				: undefined;
			console.log(
				`  ${variantLabel(variant)}, ${latencyMs} ms: ${run.ratio} of the ceiling, ${run.throttled429} × 429, ${run.errorItems} failed${baseline ? `; ${baselineLabel}: ${baseline.ratio}, ${baseline.throttled429} × 429` : ''}`,
			);
			runs.push({ variant, run, baseline });
			rows.push({
				shape: variantLabel(variant),
				'latency ms': latencyMs,
				items,
				requests: run.requests,
				'rate / ceiling': run.ratio.toFixed(3),
				'429s drawn': run.throttled429,
				'failed items': run.errorItems,
				lost: run.missing,
				...(baseline && {
					[`${baselineLabel}: rate / ceiling`]: baseline.ratio.toFixed(3),
					[`${baselineLabel}: 429s`]: baseline.throttled429,
					[`${baselineLabel}: lost`]: baseline.missing,
					'ratio to it': (run.ratio / baseline.ratio).toFixed(3),
				}),
			});
			const what = `${variantLabel(variant)}, ${latencyMs} ms`;
			checks.push(
				check(
					`rate, ${what}`,
					`≥ ${TARGET_RATIO} of the ceiling`,
					run.ratio.toFixed(3),
					run.ratio >= TARGET_RATIO,
				),
			);
			checks.push(
				check(
					`courses lost or failed, ${what}`,
					'0',
					String(run.missing + run.errorItems),
					run.missing + run.errorItems === 0,
				),
			);
		}
		if (executions > 0) {
			const result = await webhooksBeside(variant, executions, source);
			hooks.push({ variant, result });
			const worst = Math.max(...result.latencies.map((l) => l.ms));
			rows.push({
				shape: variantLabel(variant),
				'latency ms': `${INTERACTIVE_SANDBOX.latencyMs} ± ${INTERACTIVE_SANDBOX.latencyJitterMs}`,
				items: `5 webhooks beside ${result.executions} bulk executions`,
				requests: `confirmed after ${result.latencies.map((l) => round(l.ms / 1000, 1)).join(', ')} s`,
				'rate / ceiling': '',
				'429s drawn': result.refused,
				'failed items':
					result.bulkFailed + result.latencies.filter((l) => l.status !== 'success').length,
				lost: '',
			});
			checks.push(
				check(
					`webhooks beside a bulk run, ${variantLabel(variant)}`,
					'each confirmed ≤ 10 s',
					`worst ${round(worst / 1000, 1)} s`,
					worst <= WEBHOOK_LIMIT_MS &&
						result.latencies.every((l) => l.status === 'success') &&
						result.overlapped,
				),
			);
		}
	}
	return {
		title: 'One process on every limiter shape (issue 39)',
		method: `The sandbox at ${RATE_PER_MIN} requests a minute counted as each shape says (sandbox/README.md: \`sliding-60s+bucket-1s\` is the sandbox's default; fixed windows are the clock's), with and without Retry-After on its 429s. ${items} course upserts in one execution with the node's defaults (Wait for Completion on: a write and a transaction check each, ${2 * items} requests), the credential at ${RATE_PER_MIN}/min, latency ${latencies.join(', ')} ms, transactions completing at once, a fresh sandbox per run (the token fetched before, then reset). Rate = 2xx answers / the node's run time as n8n measures it / (${RATE_PER_MIN}/60).${baselineDist ? ` Each run is followed by the same run with ${baselineLabel} (its built dist/ loaded in a child process, same benchmark code and sandbox); "ratio to it" = this tree's rate / that build's.` : ''}${executions > 0 ? ` Then, on a fresh sandbox of the same shape (${INTERACTIVE_SANDBOX.latencyMs} ± ${INTERACTIVE_SANDBOX.latencyJitterMs} ms latency, 1 s transactions, at most ${INTERACTIVE_SANDBOX.transactionsPerSecond} a second), five HR webhook assignments (each confirmed) one after another beside 400 confirmed upserts in ${executions} executions, as in "Room for interactive work".` : ''}`,
		rows,
		checks,
		details: { runs, hooks, baselineLabel },
	};
}
