/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * One process's pace where users run it: `npx n8n-node build && npx tsx bench/paceN8n.ts`. In the
 * installed n8n 2.x (`n8n execute`, the built package as a custom extension), 360 course upserts
 * (Wait for Completion off, the credential at its defaults) against the sandbox at 300 a minute
 * with 400 ms latency, on each limiter shape, in three starts: no token saved; a saved token past
 * the expiry saved with it (the platform forgot it, as it forgets yesterday's); a saved token in
 * date that the platform forgot early (its restart). Baseline in the same run: n8n's HTTP Request
 * node tuned by hand (batches of 1 every 200 ms) with the package's credential, no token saved.
 * Rate = accepted writes / the node's execution time (n8n's own) / (300 / 60 s).
 *
 * Knobs: BENCH_PACE_SHAPES (fixed-60s,sliding-60s,fixed-6s,bucket-1s), BENCH_PACE_STARTS
 * (none,expired,forgotten), BENCH_PACE_RETRY_AFTER (on | off | both: on), BENCH_PACE_ITEMS (360),
 * BENCH_PACE_LOG (a file: each run's requests, ms after the node started, status, kind).
 */
import fs from 'node:fs';

import type { ThrottleShape } from '../sandbox/throttle';
import { N8N_VERSION } from '../harness/paths';
import { manualWorkflow } from '../harness/workflowBuilder';
import { coursesNode, httpUpsertNode, inN8n, upsertNode } from './lib/n8nWorkflows';
import type { CredentialJson } from '../harness/workflowJson';
import { tokenFingerprint } from '../nodes/LearningPlatform/transport/credential';
import { COURSES_PATH, LMS_CREDENTIAL } from '../harness/nodes';
import { check, round } from './lib/stats';

const RATE = 300;
const LATENCY_MS = 400;
const ITEMS = Number(process.env.BENCH_PACE_ITEMS ?? 360);
const TOKEN_PATH = '/api/oauth/token';
const list = (name: string, fallback: string) =>
	(process.env[name] || fallback)
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
const SHAPES = list(
	'BENCH_PACE_SHAPES',
	'fixed-60s,sliding-60s,fixed-6s,bucket-1s',
) as ThrottleShape[];
const STARTS = list('BENCH_PACE_STARTS', 'none,expired,forgotten') as Start[];
const RETRY_AFTER = { on: [true], off: [false], both: [true, false] }[
	(process.env.BENCH_PACE_RETRY_AFTER ?? 'on') as 'on' | 'off' | 'both'
];

type Start = 'none' | 'expired' | 'forgotten';
const START_WORDS: Record<Start, string> = {
	none: 'no token saved',
	expired: 'saved token past its saved expiry',
	forgotten: 'saved token in date, forgotten by the platform',
};

/** ≥ 0.98 on the 60 s windows and the bucket, ≥ 0.95 on the fixed 6 s window (issue 57). */
const targetOf = (shape: ThrottleShape) => (shape === 'fixed-6s' ? 0.95 : 0.98);

interface Run {
	contender: 'learningPlatform' | 'HTTP Request (200 ms batches)';
	shape: ThrottleShape;
	retryAfter: boolean;
	start: Start;
	ratio: number;
	accepted: number;
	http401: number;
	http429: number;
	tokenRequests: number;
	/** Requests sent before the first 401 came back: at most these may be refused. */
	inFlightAtFirst401: number;
	nodeSec: number;
}

inN8n(
	{
		name: 'pace',
		script: 'paceN8n',
		what: `Pace in n8n ${N8N_VERSION}: ${ITEMS} upserts, ${RATE}/min, ${LATENCY_MS} ms; ${SHAPES.join(', ')}; starts ${STARTS.join(', ')}`,
	},
	{
		latencyMs: LATENCY_MS,
		rateLimitPerMinute: RATE,
		transactionDelayMs: 0,
		clientId: 'bench-pace-n8n',
	},
	async (sandbox, n8n) => {
		const data = {
			baseUrl: sandbox.url,
			clientId: sandbox.clientId,
			clientSecret: sandbox.clientSecret,
		};
		const savedToken = (start: Start) =>
			start === 'none'
				? {}
				: {
						accessToken: `forgotten-${start}`,
						accessTokenFor: tokenFingerprint(data),
						accessTokenExpiresAt: Date.now() + (start === 'expired' ? -60_000 : 3_600_000),
					};
		const items = coursesNode(ITEMS, 'pace');
		const nodeFor = (contender: Run['contender'], credential: CredentialJson) =>
			contender === 'learningPlatform'
				? upsertNode(credential)
				: httpUpsertNode(sandbox.url, credential, { batchSize: 1, batchInterval: 200 });
		// Each run gets a credential of its own, imported at once (each CLI call starts n8n: ~7 s).
		const plans = SHAPES.flatMap((shape) =>
			RETRY_AFTER.flatMap((retryAfter) => [
				...STARTS.map((start) => ({
					contender: 'learningPlatform' as const,
					shape,
					retryAfter,
					start,
				})),
				{
					contender: 'HTTP Request (200 ms batches)' as const,
					shape,
					retryAfter,
					start: 'none' as Start,
				},
			]),
		);
		const credentials: CredentialJson[] = plans.map((plan, i) => ({
			id: `benchPace${String(i).padStart(7, '0')}`,
			name: `Pace ${i}`,
			type: LMS_CREDENTIAL,
			data: { ...data, ...savedToken(plan.start) },
		}));
		await n8n.importCredentials(credentials);
		const ids = await n8n.importWorkflows(
			plans.map((plan, i) =>
				manualWorkflow(`Pace ${i}`, [items, nodeFor(plan.contender, credentials[i])]),
			),
		);
		const runs: Run[] = [];
		for (const [i, plan] of plans.entries()) {
			sandbox.configure({ throttleShape: plan.shape, throttleRetryAfter: plan.retryAfter });
			sandbox.reset();
			const execution = await n8n.execute(ids[i]);
			const node = execution.runData.Node?.[0];
			const log = sandbox.requests();
			const writes = log.filter((r) => r.path === COURSES_PATH);
			const accepted = writes.filter((r) => r.status === 202).length;
			const firstRefusal = writes.find((r) => r.status === 401);
			const nodeSec = Number(node?.executionTime ?? NaN) / 1000;
			const run: Run = {
				...plan,
				ratio: round(accepted / nodeSec / (RATE / 60), 3),
				accepted,
				http401: writes.filter((r) => r.status === 401).length,
				http429: log.filter((r) => r.status === 429).length,
				tokenRequests: log.filter((r) => r.path === TOKEN_PATH).length,
				// A request arrives LATENCY_MS before its answer leaves: sent before the 401 came back.
				inFlightAtFirst401: firstRefusal
					? writes.filter((r) => Date.parse(r.time) < Date.parse(firstRefusal.time) + LATENCY_MS)
							.length
					: 0,
				nodeSec: round(nodeSec, 1),
			};
			// What each request waited for: its arrival after the node started, in order.
			if (process.env.BENCH_PACE_LOG) {
				const startedAt = Number(node?.startTime);
				const line = log.map(
					(r) =>
						`${Date.parse(r.time) - startedAt}:${r.status}:${r.path === TOKEN_PATH ? 'token' : 'write'}`,
				);
				fs.appendFileSync(
					process.env.BENCH_PACE_LOG,
					`${JSON.stringify({ ...plan, nodeSec, line })}\n`,
				);
			}
			if (!execution.ok || accepted !== ITEMS)
				console.log(`  run ${i} did not write every item: ${execution.errorMessage ?? ''}`);
			console.log(
				`  ${run.contender}, ${run.shape}${run.retryAfter ? '' : ' no Retry-After'}, ${START_WORDS[run.start]}: ${run.ratio} of the ceiling, ${run.http429} × 429, ${run.http401} × 401, ${run.tokenRequests} token request(s), ${accepted}/${ITEMS} written`,
			);
			runs.push(run);
		}
		const rows = runs.map((run) => ({
			contender: run.contender,
			limiter: `${run.shape}${run.retryAfter ? '' : ', no Retry-After'}`,
			start: START_WORDS[run.start],
			'rate / ceiling': run.ratio.toFixed(3),
			'429s': run.http429,
			'401s': run.http401,
			'token requests': run.tokenRequests,
			written: `${run.accepted}/${ITEMS}`,
			's (node)': run.nodeSec,
		}));
		const ours = runs.filter((run) => run.contender === 'learningPlatform');
		const baselineOf = (run: Run) =>
			runs.find(
				(b) =>
					b.contender !== run.contender && b.shape === run.shape && b.retryAfter === run.retryAfter,
			);
		const checks = ours.flatMap((run) => {
			const label = `${run.shape}${run.retryAfter ? '' : ' no Retry-After'}, ${START_WORDS[run.start]}`;
			const baseline = baselineOf(run);
			return [
				check(
					`${label}: rate / ceiling`,
					`≥ ${targetOf(run.shape)}`,
					run.ratio.toFixed(3),
					run.ratio >= targetOf(run.shape),
				),
				check(
					`${label}: 429s per 100 requests`,
					'≤ 1',
					(run.http429 / (ITEMS / 100)).toFixed(2),
					run.http429 <= ITEMS / 100,
				),
				check(
					`${label}: 401s`,
					run.start === 'forgotten'
						? `≤ ${run.inFlightAtFirst401} (in flight at the first 401)`
						: '0',
					String(run.http401),
					run.http401 <= (run.start === 'forgotten' ? run.inFlightAtFirst401 : 0),
				),
				...(baseline
					? [
							check(
								`${label}: rate / hand-tuned HTTP Request's`,
								'≥ 1.0',
								(run.ratio / baseline.ratio).toFixed(3),
								run.ratio >= baseline.ratio,
							),
						]
					: []),
				check(
					`${label}: nothing lost`,
					`${ITEMS}/${ITEMS}`,
					`${run.accepted}/${ITEMS}`,
					run.accepted === ITEMS,
				),
			];
		});
		return {
			title: "One process's pace in real n8n",
			method: `${ITEMS} course upserts per execution in n8n ${N8N_VERSION} (\`n8n execute\`: Manual Trigger → Code node → the node), the built package as a custom extension, Wait for Completion off, the credential at its defaults (300 per minute); the sandbox at ${RATE}/min with ${LATENCY_MS} ms latency on each limiter shape, reset before each run. Starts: ${Object.values(START_WORDS).join('; ')}. Baseline in the same run: HTTP Request 4.2 with the package's credential, batches of 1 every 200 ms. Rate = accepted writes / the node's execution time (n8n's own) / (${RATE} / 60 s). Each execution is a new process: no token is held in memory at its start.`,
			rows,
			checks,
			details: { items: ITEMS, latencyMs: LATENCY_MS, runs },
		};
	},
);
