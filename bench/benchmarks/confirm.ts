/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import { TRANSACTION_PATH_PREFIX as TRANSACTIONS_PREFIX } from '../../harness/lmsSandbox';
import type { PackageSource } from '../../harness/nodeTypes';
import { withClient } from '../lib/client';
import { collectGarbage } from '../lib/gc';
import { COURSES_PATH, courseItems, courseUpsertNode } from '../../harness/nodes';
import { requirePackageModule } from '../../harness/source';
import { check, round, type TargetCheck } from '../lib/stats';
import type { Row } from '../lib/table';
import type { BenchmarkOutcome } from './types';

const ITEMS = Number(process.env.BENCH_CONFIRM_ITEMS ?? 200);
const RPM = 300;
const LATENCY_MS = 200;
/** The sandbox's default (1 s), and longer ones the node's first guess (1 s) does not cover, so that it must learn. */
const TRANSACTION_DELAYS_MS = [1_000, 3_000, 10_000];
const TARGET_BUSY = 0.9;

type ConfirmRun = Awaited<ReturnType<typeof runOne>>;

/** The package's client state, from the same module instance the engine loaded. */
function learnedFirstCheck(
	source: PackageSource,
	baseUrl: string,
	clientId: string,
): number | undefined {
	try {
		const { clientCompletion } = requirePackageModule<{
			clientCompletion(key: string): { firstCheckDelayMs(): number };
		}>('nodes/shared/pacing/completion', source);
		const { clientKey } = requirePackageModule<{
			clientKey(baseUrl: string, clientId: string): string;
		}>('nodes/shared/request/secrets', source);
		return Math.round(clientCompletion(clientKey(baseUrl, clientId)).firstCheckDelayMs());
	} catch {
		return undefined;
	}
}

async function runOne(transactionDelayMs: number, source: PackageSource) {
	return withClient(
		source,
		{
			latencyMs: LATENCY_MS,
			rateLimitPerMinute: RPM,
			transactionDelayMs,
			clientId: `bench-confirm-${transactionDelayMs}`,
		},
		async (client, sandbox) => {
			await sandbox.reset();
			const items = courseItems(ITEMS, `confirm-${transactionDelayMs}`);
			collectGarbage();
			// The node's defaults: Wait for Completion is on.
			const run = await client.run(courseUpsertNode(), items);
			if (run.error)
				throw new Error(`confirm ${transactionDelayMs} ms stopped the workflow: ${run.error}`);
			const log = (await sandbox.requests()).filter(
				(entry) => !entry.path.endsWith('/oauth/token'),
			);
			const ok = (status: number | null) => status !== null && status >= 200 && status < 300;
			const writes = log.filter((entry) => entry.path === COURSES_PATH && ok(entry.status)).length;
			const checkEntries = log.filter((entry) => entry.path.startsWith(TRANSACTIONS_PREFIX));
			const state = await sandbox.state();
			const stored = state.courses;
			const missing = items.filter((item) => !stored[item.externalId]).length;
			const confirmed = run.items.filter((item) => item.json.confirmation === 'confirmed').length;
			// Checks after a transaction's completion confirm it; those before found it running.
			const completedAt = new Map(
				state.transactions.map((tx) => [
					tx.id,
					tx.completed_at ? Date.parse(tx.completed_at) : Number.POSITIVE_INFINITY,
				]),
			);
			const createdAt = new Map(state.transactions.map((tx) => [tx.id, Date.parse(tx.created_at)]));
			let earlyChecks = 0;
			const confirmDelays: number[] = [];
			for (const entry of checkEntries) {
				const id = decodeURIComponent(entry.path.slice(TRANSACTIONS_PREFIX.length));
				const at = Date.parse(entry.time);
				if (at < (completedAt.get(id) ?? Number.POSITIVE_INFINITY)) earlyChecks++;
				else confirmDelays.push(at - (createdAt.get(id) ?? at));
			}
			const seconds = run.executionMs / 1000;
			const writeTimes = log
				.filter((entry) => entry.path === COURSES_PATH)
				.map((entry) => Date.parse(entry.time));
			const ceiling = RPM / 60;
			return {
				transactionDelayMs,
				items: ITEMS,
				nodeMs: run.executionMs,
				writes,
				checks: checkEntries.length,
				requests: log.length,
				throttled429: log.filter((entry) => entry.status === 429).length,
				confirmed,
				errorItems: run.errorItems.length,
				missing,
				busyRatio: round((writes + confirmed) / seconds / ceiling, 3),
				okRatio: round(log.filter((entry) => ok(entry.status)).length / seconds / ceiling, 3),
				earlyChecks,
				meanConfirmMs:
					confirmDelays.length > 0
						? Math.round(confirmDelays.reduce((a, b) => a + b, 0) / confirmDelays.length)
						: 0,
				tailMs: writeTimes.length > 0 ? run.endedAt - Math.max(...writeTimes) : 0,
				learnedFirstCheckMs: learnedFirstCheck(source, sandbox.url, sandbox.clientId),
			};
		},
		RPM,
	);
}

export async function runConfirmBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	const runs: ConfirmRun[] = [];
	for (const delay of TRANSACTION_DELAYS_MS) {
		const result = await runOne(delay, source);
		console.log(
			`  confirm, transactions of ${delay} ms: ${result.requests} requests for ${result.items} items (${result.checks} checks, ${result.earlyChecks} early), busy ${result.busyRatio}, ${result.throttled429} × 429`,
		);
		runs.push(result);
	}
	const rows: Row[] = runs.map((run) => ({
		'transaction takes ms': run.transactionDelayMs,
		items: run.items,
		'node run s': round(run.nodeMs / 1000, 2),
		writes: run.writes,
		checks: run.checks,
		'…that found it running': run.earlyChecks,
		'requests in all': run.requests,
		'requests / 2N': round(run.requests / (2 * run.items), 3),
		'429s': run.throttled429,
		'useful requests / ceiling': run.busyRatio.toFixed(3),
		'2xx / ceiling': run.okRatio.toFixed(3),
		'acceptance → confirming check ms (mean)': run.meanConfirmMs,
		'last write → node end ms': run.tailMs,
		'learned first check ms': run.learnedFirstCheckMs ?? '',
		confirmed: run.confirmed,
		'failed items': run.errorItems,
		'missing in state': run.missing,
	}));
	const checks: TargetCheck[] = runs.flatMap((run) => [
		check(
			`requests to confirm ${run.items} writes, ${run.transactionDelayMs} ms transactions`,
			`≤ 2N = ${2 * run.items}`,
			String(run.requests),
			run.requests <= 2 * run.items,
		),
		check(
			`useful requests / ceiling, ${run.transactionDelayMs} ms transactions`,
			`≥ ${TARGET_BUSY}`,
			run.busyRatio.toFixed(3),
			run.busyRatio >= TARGET_BUSY,
		),
		check(
			`writes confirmed, ${run.transactionDelayMs} ms transactions`,
			String(run.items),
			String(run.confirmed),
			run.confirmed === run.items && run.missing === 0,
		),
	]);
	const notes = runs
		.filter((run) => run.requests > 2 * run.items || run.busyRatio < TARGET_BUSY)
		.map((run) => {
			const ideal = (2 * run.items) / (RPM / 60);
			return `MISS explained, ${run.transactionDelayMs} ms transactions: the first guess (a check 1 s after acceptance, before anything is learned) was wrong by a factor of ten. ${run.earlyChecks} checks reached the sandbox before their transaction had completed: those already queued for the throttle when the first check found its transaction running (the others were postponed at once). Each costs one request more than 2N. Then the learned delay${run.learnedFirstCheckMs ? ` (${(run.learnedFirstCheckMs / 1000).toFixed(1)} s at the end of the run)` : ''} plus the throttle queue keeps the last items waiting: the node ended ${(run.tailMs / 1000).toFixed(1)} s after the last write arrived, while ${run.items} writes and ${run.items} checks need ${ideal.toFixed(0)} s at the ceiling. Checking sooner would shorten that tail at the price of more early checks; the node favours fewer requests, since a waiting item holds no place in the pool and no throttle budget.`;
		});
	const wait = await waitOutcome(source);
	return {
		title: 'Confirming writes at the ceiling, and waiting for a transaction',
		method: `${ITEMS} course upserts with the node's defaults (Wait for Completion on) against the sandbox at the platform's ${RPM} requests/min, ${LATENCY_MS} ms latency, transactions completing ${TRANSACTION_DELAYS_MS.join(', ')} ms after acceptance; each run on a fresh client id, so nothing is learned beforehand. Requests = every API request in the sandbox's log (writes, transaction checks, 429s; the token fetched before is apart). A check counts as early when it reached the sandbox before the transaction's completed_at. Useful requests = accepted writes + the one check that confirmed each; divided by the node's run time and the ceiling (${RPM / 60}/s), this says how much of the budget did useful work. Waiting items hold no place in the pool, so writes keep flowing while earlier transactions are checked. No HTTP Request baseline: that node cannot confirm a write. ${wait.method}`,
		rows: [...rows, ...wait.rows],
		checks: [...checks, ...wait.checks],
		notes,
	};
}

const WAIT_DELAYS_SEC = [1, 5, 30];
/** The tolerance the target allows on top of one poll interval. */
const INTERVAL_TOLERANCE = 1.1;

/**
 * What "no faster than logarithmically" is checked against: 2 + 2·log2(1 + delay / first interval).
 * A fixed-interval poller needs delay / interval + 1 polls and exceeds it from a few seconds on.
 */
function logarithmicPollBound(delaySec: number, firstIntervalSec: number): number {
	return Math.floor(2 + 2 * Math.log2(1 + delaySec / firstIntervalSec));
}

type WaitRun = Awaited<ReturnType<typeof runWait>>;

async function runWait(delaySec: number, source: PackageSource) {
	return withClient(
		source,
		{
			transactionDelayMs: delaySec * 1000,
			clientId: `bench-wait-${delaySec}`,
		},
		async (client, sandbox) => {
			await sandbox.reset();
			const run = await client.run(
				courseUpsertNode({ waitForCompletion: true, timeout: 120 }),
				courseItems(1, `wait-${delaySec}`),
			);
			if (run.error || run.errorItems.length > 0) {
				throw new Error(
					`The upsert with waitForCompletion failed: ${run.error ?? JSON.stringify(run.errorItems[0].json)}`,
				);
			}
			const [transaction] = (await sandbox.state()).transactions;
			if (!transaction?.completed_at)
				throw new Error('The sandbox recorded no completed transaction');
			const acceptedAt = Date.parse(transaction.created_at);
			const completedAt = Date.parse(transaction.completed_at);
			const pollTimes = (await sandbox.requests())
				.filter((entry) => entry.method === 'GET' && entry.path.startsWith(TRANSACTIONS_PREFIX))
				.map((entry) => Date.parse(entry.time));
			const intervals = pollTimes.slice(1).map((time, i) => time - pollTimes[i]);
			return {
				delaySec,
				polls: pollTimes.length,
				pollOffsetsSec: pollTimes.map((time) => round((time - acceptedAt) / 1000, 2)),
				firstIntervalSec: round((intervals[0] ?? 0) / 1000, 3),
				// With one poll, the wait that ended with it is the one from the acceptance.
				lastIntervalSec: round(
					(intervals.length > 0
						? intervals[intervals.length - 1]
						: (pollTimes[0] ?? acceptedAt) - acceptedAt) / 1000,
					3,
				),
				returnDelayMs: run.endedAt - completedAt,
				status: String(run.items[0]?.json.status ?? ''),
				nodeMs: run.executionMs,
			};
		},
		300,
	);
}

/** Wait for Completion on one write: how soon it returns after its transaction completes, and its polls. */
async function waitOutcome(
	source: PackageSource,
): Promise<Pick<BenchmarkOutcome, 'method' | 'rows' | 'checks'>> {
	const runs: WaitRun[] = [];
	for (const delaySec of WAIT_DELAYS_SEC) {
		const result = await runWait(delaySec, source);
		console.log(
			`  wait ${delaySec} s: ${result.polls} polls, returned ${result.returnDelayMs} ms after completion`,
		);
		runs.push(result);
	}
	const rows: Row[] = runs.map((run) => ({
		'transaction delay s': run.delaySec,
		polls: run.polls,
		'polls at (s after acceptance)': run.pollOffsetsSec.join(', '),
		'last interval s': run.lastIntervalSec,
		'returned after completion ms': run.returnDelayMs,
		'allowed ms': Math.round(run.lastIntervalSec * 1000 * INTERVAL_TOLERANCE),
		'log bound (polls)': logarithmicPollBound(run.delaySec, run.firstIntervalSec || 1),
		'fixed 1-s poller (polls)': run.delaySec + 1,
		'final status': run.status,
	}));
	const checks = runs.flatMap((run) => {
		const allowedMs = run.lastIntervalSec * 1000 * INTERVAL_TOLERANCE;
		const bound = logarithmicPollBound(run.delaySec, run.firstIntervalSec || 1);
		return [
			check(
				`return delay, ${run.delaySec} s transaction`,
				`≤ last poll interval + 10 % (${Math.round(allowedMs)} ms)`,
				`${run.returnDelayMs} ms`,
				run.returnDelayMs <= allowedMs,
			),
			check(
				`polls, ${run.delaySec} s transaction`,
				`≤ 2 + 2·log2(1 + delay / first interval) = ${bound}`,
				String(run.polls),
				run.polls <= bound,
			),
		];
	});
	return {
		method: `Then one course upsert with options.waitForCompletion against the sandbox with transaction delays of ${WAIT_DELAYS_SEC.join(', ')} s (no latency, throttle 300/min). Completion time is the sandbox's completed_at of the transaction; the node's return is its end time as n8n measures it; polls are the GET request_data calls in the sandbox's log. "Last interval" is the wait before the poll that saw the transaction finished (from the acceptance, when that was the first poll): the node cannot notice completion sooner than that, so the target allows that interval plus 10 %. Logarithmic growth is checked against 2 + 2·log2(1 + delay / first interval) polls; a poller with a fixed 1-s interval would need delay + 1.`,
		rows,
		checks,
	};
}
