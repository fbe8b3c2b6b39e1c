/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * The figures of one configuration, taken from what the services saw rather than from n8n's
 * own account: the sandbox's request log and stored courses, and the executions n8n wrote to
 * Postgres (status, and the node's output and error from the execution data).
 */
import path from 'node:path';

import type { LoggedRequest, SandboxState } from '../../sandbox/server';
import { N8N_DIR } from '../../harness/queueCluster';
import type { Postgres } from '../../harness/services';
import { COURSES_PATH } from '../../harness/lmsSandbox';

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);
/** What an error caused by the platform's throttle says (status code or the sandbox's message). */
const THROTTLE_ERROR = /\b429\b|too many requests|rate limit|throttl/i;

export interface ExecutionRow {
	id: string;
	status: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

export async function executionsOf(
	postgres: Postgres,
	workflowId: string,
): Promise<ExecutionRow[]> {
	const out = await postgres.query(
		`select coalesce(json_agg(json_build_object('id', id::text, 'status', status, 'startedAt', "startedAt", 'stoppedAt', "stoppedAt") order by id), '[]'::json) from execution_entity where "workflowId" = '${workflowId}'`,
	);
	return JSON.parse(out.trim() || '[]') as ExecutionRow[];
}

export function allFinished(rows: ExecutionRow[], expected: number): boolean {
	return rows.length >= expected && rows.every((row) => FINISHED.has(row.status));
}

export interface ExecutionOutcome extends ExecutionRow {
	worker: string;
	/** Items the upsert node put out (with Continue On Fail, error items included). */
	outputItems: number;
	errorItems: number;
	/** The execution's error (the node failed without Continue On Fail), masked as n8n stored it. */
	error: string;
	/** Error messages that are the platform's throttle showing through (429). */
	throttleErrors: number;
}

interface StoredRun {
	resultData?: {
		error?: { message?: string; description?: string };
		runData?: Record<
			string,
			Array<{
				error?: { message?: string };
				data?: { main?: Array<Array<{ json?: Record<string, unknown> }> | null> };
			}>
		>;
	};
}

/** n8n stores execution data in the `flatted` format; its own copy of the library reads it. */
function parseFlatted(text: string): StoredRun {
	const flatted = require(path.join(N8N_DIR, 'node_modules', 'flatted')) as {
		parse(text: string): unknown;
	};
	return flatted.parse(text) as StoredRun;
}

export async function executionOutcomes(
	postgres: Postgres,
	rows: ExecutionRow[],
	nodeName: string,
	workerOf: Map<string, string>,
): Promise<ExecutionOutcome[]> {
	const outcomes: ExecutionOutcome[] = [];
	for (const row of rows) {
		const data = (
			await postgres.query(
				`select data from execution_data where "executionId" = ${Number(row.id)}`,
			)
		).replace(/\n$/, '');
		let outputItems = 0;
		let errorItems = 0;
		let error = '';
		let throttleErrors = 0;
		if (data) {
			const run = parseFlatted(data);
			const message = run.resultData?.error
				? `${run.resultData.error.message ?? ''} ${run.resultData.error.description ?? ''}`.trim()
				: '';
			error = message;
			if (message && THROTTLE_ERROR.test(message)) throttleErrors++;
			for (const task of run.resultData?.runData?.[nodeName] ?? []) {
				for (const item of task.data?.main?.[0] ?? []) {
					outputItems++;
					const itemError = item.json?.error;
					if (itemError !== undefined) {
						errorItems++;
						if (THROTTLE_ERROR.test(JSON.stringify(itemError))) throttleErrors++;
					}
				}
			}
		}
		outcomes.push({
			...row,
			worker: workerOf.get(row.id) ?? '?',
			outputItems,
			errorItems,
			error,
			throttleErrors,
		});
	}
	return outcomes;
}

export interface RequestFigures {
	writes: number;
	writesAccepted: number;
	writes429: number;
	writesFailed: number;
	polls: number;
	tokens: number;
	/** Every 429 the sandbox answered (writes, polls and token requests). */
	throttled429: number;
	/** From the first write's arrival to the last accepted write's, plus one interval of the ceiling. */
	busySec: number;
	acceptedPerSec: number;
	/** All accepted API calls (writes, polls, tokens) per second of the busy period: what the throttle counts. */
	allAcceptedPerSec: number;
}

const isWrite = (entry: LoggedRequest) => entry.path === COURSES_PATH && entry.method === 'POST';
const ok = (entry: LoggedRequest) =>
	entry.status !== null && entry.status >= 200 && entry.status < 300;

/** Accepted writes and 429s (any request) per 10 s from the first write: how the pace moved. */
export function timeline(log: LoggedRequest[]) {
	const bucketSec = 10;
	const writes = log.filter(isWrite);
	if (writes.length === 0) return [];
	const first = Date.parse(writes[0].time);
	const buckets: Array<{ fromSec: number; acceptedWrites: number; throttled429: number }> = [];
	for (const entry of log) {
		const at = Date.parse(entry.time) - first;
		if (at < 0) continue;
		const index = Math.floor(at / 1000 / bucketSec);
		while (buckets.length <= index)
			buckets.push({ fromSec: buckets.length * bucketSec, acceptedWrites: 0, throttled429: 0 });
		if (entry.status === 429) buckets[index].throttled429++;
		else if (isWrite(entry) && ok(entry)) buckets[index].acceptedWrites++;
	}
	return buckets;
}

export function requestFigures(log: LoggedRequest[], ceilingPerMinute: number): RequestFigures {
	const writes = log.filter(isWrite);
	const accepted = writes.filter(ok);
	const interval = 60 / ceilingPerMinute;
	const first = writes.length > 0 ? Date.parse(writes[0].time) : 0;
	const last = accepted.length > 0 ? Date.parse(accepted[accepted.length - 1].time) : first;
	const busySec = writes.length > 0 ? (last - first) / 1000 + interval : 0;
	const inBusy = log.filter(
		(entry) => ok(entry) && Date.parse(entry.time) >= first && Date.parse(entry.time) <= last,
	);
	return {
		writes: writes.length,
		writesAccepted: accepted.length,
		writes429: writes.filter((entry) => entry.status === 429).length,
		writesFailed: writes.filter((entry) => !ok(entry) && entry.status !== 429).length,
		polls: log.filter((entry) => entry.method === 'GET' && entry.path.includes('/request_data/'))
			.length,
		tokens: log.filter((entry) => entry.path.endsWith('/oauth/token')).length,
		throttled429: log.filter((entry) => entry.status === 429).length,
		busySec,
		acceptedPerSec: busySec > 0 ? accepted.length / busySec : 0,
		allAcceptedPerSec: busySec > 0 ? inBusy.length / busySec : 0,
	};
}

/** Expected external ids that are not among the sandbox's stored courses. */
export function lostCourses(state: SandboxState, expected: string[]): string[] {
	const stored = state.courses as Record<string, unknown>;
	return expected.filter((externalId) => !stored[externalId]);
}
