/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import { createCredentialsHelper } from '../../harness/engine';
import type { PackageSource } from '../../harness/nodeTypes';
import { courseItems, courseUpsertNode, LMS_CREDENTIAL, lmsCredentialData } from '../../harness/nodes';
import { runSingleNode } from '../../harness/runNode';
import { startBenchSandbox } from '../lib/sandboxHandle';
import { check, round } from '../lib/stats';
import type { Row } from '../lib/table';
import { fetchToken } from '../lib/warmup';
import type { BenchmarkOutcome } from './types';

export const TRANSACTION_DELAYS_SEC = [1, 5, 30];
const TRANSACTION_PATH_PREFIX = '/api/developer/v2/request_data/';
/** The tolerance the target allows on top of one poll interval. */
const INTERVAL_TOLERANCE = 1.1;

/**
 * What "no faster than logarithmically" is checked against: 2 + 2·log2(1 + delay / first interval).
 * A fixed-interval poller needs delay / interval + 1 polls and exceeds it from a few seconds on.
 */
export function logarithmicPollBound(delaySec: number, firstIntervalSec: number): number {
	return Math.floor(2 + 2 * Math.log2(1 + delaySec / firstIntervalSec));
}

export interface WaitRun {
	delaySec: number;
	polls: number;
	/** Seconds from the write's acceptance to each poll. */
	pollOffsetsSec: number[];
	firstIntervalSec: number;
	/** The interval that ended with the poll that saw the transaction finished. */
	lastIntervalSec: number;
	/** From the transaction's completion to the node returning its item. */
	returnDelayMs: number;
	status: string;
	nodeMs: number;
}

async function runOne(delaySec: number, source: PackageSource): Promise<WaitRun> {
	const sandbox = await startBenchSandbox({
		transactionDelayMs: delaySec * 1000,
		clientId: `bench-wait-${delaySec}`,
	});
	try {
		const helper = createCredentialsHelper(
			{ [LMS_CREDENTIAL]: lmsCredentialData(sandbox, 300) },
			source,
		);
		await fetchToken(source, helper);
		await sandbox.reset();
		const run = await runSingleNode({
			node: courseUpsertNode({ waitForCompletion: true, timeout: 120 }),
			items: courseItems(1, `wait-${delaySec}`),
			source,
			credentialsHelper: helper,
		});
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
			.filter((entry) => entry.method === 'GET' && entry.path.startsWith(TRANSACTION_PATH_PREFIX))
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
	} finally {
		await sandbox.close();
	}
}

export async function runWaitBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	const runs: WaitRun[] = [];
	for (const delaySec of TRANSACTION_DELAYS_SEC) {
		const result = await runOne(delaySec, source);
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
		title: 'Waiting for a transaction',
		method: `One course upsert with options.waitForCompletion against the sandbox with transaction delays of ${TRANSACTION_DELAYS_SEC.join(', ')} s (no latency, throttle 300/min). Completion time is the sandbox's completed_at of the transaction; the node's return is its end time as n8n measures it; polls are the GET request_data calls in the sandbox's log. "Last interval" is the wait before the poll that saw the transaction finished (from the acceptance, when that was the first poll): the node cannot notice completion sooner than that, so the target allows that interval plus 10 %. Logarithmic growth is checked against 2 + 2·log2(1 + delay / first interval) polls; a poller with a fixed 1-s interval would need delay + 1.`,
		rows,
		checks,
		details: { runs },
	};
}
