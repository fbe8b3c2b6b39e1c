import type { IDataObject, IHttpRequestMethods, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { CompletionEstimate, Deadline, Throttle } from '../../shared/pacing/time';
import { pause, SLEEP_STEP_MS } from '../../shared/pacing/time';
import type { Run } from '../../shared/request/call';
import { callApi } from '../../shared/request/call';
import { requestTimeoutMs, apiError, HttpProblem } from '../../shared/request/failure';
import { clientRedactor } from '../../shared/request/secrets';
import type { Redactor } from '../../shared/request/secrets';
import { documentedAnswer } from '../../shared/request/body';
import type { LmsCredentials } from './credential';
import { CREDENTIAL_TYPE, DEFAULT_REQUEST_TIMEOUT_SEC, lmsClientKey } from './credential';
import type { TokenGate } from '../../shared/request/clientCredentials';

/** The course's external id, as the course and the assignment bodies name it. */
export const EXTERNAL_ID_FIELD = 'external_id';

/** Reads (a transaction, a catalog walk) end by this when the operation gives no timeout. */
export const READ_DEADLINE_MS = 5 * 60_000;

/** A catalog entry: the platform's id and the listed fields as body values. */
export interface IndexedCourse {
	id?: string;
	listed: Record<string, unknown>;
}

export interface LmsRun extends Run {
	readonly credentials: LmsCredentials;
	readonly baseUrl: string;
	readonly origin: string;
	readonly throttle: Throttle;
	/** The catalog by external id, read once per execution when an operation first needs it. */
	readonly catalog: { byExternalId?: Promise<Map<string, IndexedCourse>> };
	/** When to check a write's transaction first, learned per client (pacing/time.ts). */
	readonly completion: CompletionEstimate;
	readonly token: TokenGate;
}

interface LmsRequest<S extends z.ZodTypeAny = z.ZodTypeAny> {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	action: string;
	deadline: Deadline;
	answer: { schema: S; is: string };
	/** Why a documented answer is still not the one asked for, if it is not. */
	mismatch?: (answer: z.output<S>) => string | undefined;
	/** Told the memory the answer takes (body and parsed JSON, in bytes): a walk counts it. */
	measured?: (bytes: number) => void;
	/** The request names a record (a transaction): a 404 says it is not there, not a bad setting. */
	namesRecord?: boolean;
}

/** Everything to mask for this credential: its secret and every token issued for its client. */
export function lmsRedactor(credentials: LmsCredentials): Redactor {
	return clientRedactor(
		lmsClientKey(credentials),
		credentials.clientSecret,
		credentials.accessToken,
	);
}

export async function lmsRequest<S extends z.ZodTypeAny>(
	run: LmsRun,
	itemIndex: number,
	request: LmsRequest<S>,
): Promise<z.output<S>> {
	try {
		const answer = await callApi(run.fns, {
			credentialType: CREDENTIAL_TYPE,
			method: request.method,
			url: `${run.baseUrl}${request.path}`,
			qs: request.qs,
			body: request.body,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			origin: run.origin,
			requestTimeoutMs: requestTimeoutMs(run.credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
			deadline: request.deadline,
			// Reads, and writes that set a state keyed by an external id (and email): all repeatable.
			retry: { safeToRepeat: true },
			token: run.token,
			throttle: run.throttle,
			stopped: () => run.stopped,
		});
		request.measured?.(answer.bytes);
		const documented = documentedAnswer(answer, request.answer.schema, request.answer.is);
		const mismatch = request.mismatch?.(documented);
		if (mismatch) throw new HttpProblem('unexpected', `unexpected answer: ${mismatch}`);
		return documented;
	} catch (error) {
		// The live token may have been issued during this call: mask with what is known now.
		throw apiError(run.fns.getNode(), error, {
			itemIndex,
			action: request.action,
			redactor: lmsRedactor(run.credentials),
			namesRecord: request.namesRecord,
		});
	}
}

const TRANSACTIONS_PATH = '/api/developer/v2/request_data';

const transactionShape = z
	.object({
		id: z.string().min(1, 'is missing'),
		status: z.string().min(1, 'is missing'),
		http_method: z.string().optional(),
		response: z.record(z.string(), z.unknown()).nullable().optional(),
	})
	.passthrough();

const transactionAnswerShape = z.object({ data: transactionShape }).passthrough();

const acceptedWriteShape = transactionAnswerShape.extend({ message: z.string().optional() });

export type Transaction = z.infer<typeof transactionShape>;

export async function getTransaction(
	run: LmsRun,
	itemIndex: number,
	id: string,
	deadline: Deadline,
): Promise<Transaction> {
	const answer = await lmsRequest(run, itemIndex, {
		method: 'GET',
		path: `${TRANSACTIONS_PATH}/${encodeURIComponent(id)}`,
		action: `Reading transaction ${id}`,
		namesRecord: true,
		deadline,
		answer: { schema: transactionAnswerShape, is: 'a transaction' },
		mismatch: ({ data }) =>
			data.id.toLowerCase() === id.toLowerCase()
				? undefined
				: `asked for transaction ${id}, got ${data.id}`,
	});
	return answer.data;
}

/**
 * Each wait 1.5 times the last, so checks grow logarithmically with time. The learned first-check
 * delay is asked again while waiting (a later answer postpones checks), at most half the budget.
 */
export async function waitForTransaction(
	run: LmsRun,
	itemIndex: number,
	id: string,
	{
		pollIntervalSec,
		deadline,
		learnFrom,
	}: { pollIntervalSec: number; deadline: Deadline; learnFrom?: CompletionEstimate },
): Promise<{ transaction: Transaction; polls: number; waitedMs: number }> {
	const started = deadline.now();
	const latestStart = deadline.remainingMs() / 2;
	let interval = Math.max(1, pollIntervalSec * 1000);
	let transaction: Transaction | undefined;
	let polls = 0;
	for (;;) {
		for (;;) {
			const notBefore = started + Math.min(learnFrom?.firstCheckDelayMs() ?? 0, latestStart);
			const left = Math.min(notBefore - deadline.now(), deadline.remainingMs());
			if (left <= 0 || deadline.cancelled) break;
			await pause(Math.min(left, SLEEP_STEP_MS), deadline.cancelSignal);
		}
		transaction = await getTransaction(run, itemIndex, id, deadline).catch((error: unknown) => {
			// A deadline that passed during a check after "in progress" is a timeout, not the item's error.
			if (transaction && deadline.expired && !deadline.cancelled) return transaction;
			throw error;
		});
		const done = transaction.status !== 'initiated';
		if (polls++ === 0) learnFrom?.observeFirstCheck(deadline.now() - started, done);
		if (done || deadline.expired || deadline.cancelled) break;
		await pause(Math.min(interval, deadline.remainingMs()), deadline.cancelSignal);
		interval = Math.min(30_000, interval * 1.5);
	}
	if (transaction.status === 'success') {
		return { transaction, polls, waitedMs: deadline.now() - started };
	}
	const message =
		typeof transaction.response?.message === 'string' ? transaction.response.message : 'no message';
	const error =
		transaction.status === 'initiated'
			? new NodeOperationError(
					run.fns.getNode(),
					`Transaction ${id} was still in progress after ${Math.round(deadline.budgetMs / 1000)} s`,
					{
						itemIndex,
						description: `The platform has not finished it yet. Poll it later with Transaction → Wait (or Get) and transaction ID ${id}.`,
					},
				)
			: new NodeApiError(run.fns.getNode(), { ...transaction } as JsonObject, {
					itemIndex,
					message: `${message} (transaction ${id} ended with status "${transaction.status}")`,
					description: `The platform accepted the write, then reported status "${transaction.status}" for it, with the message: ${message}`,
				});
	// Continue On Fail puts these on the error item, so the workflow can poll later.
	error.context.details = { transactionId: id, status: transaction.status };
	throw error;
}

export interface WriteSettings {
	waitForCompletion: boolean;
	/** Bounds the write and, when waiting, the wait. */
	deadline: Deadline;
	/** Called once the write was accepted and the item only waits for its transaction. */
	whileWaiting?: () => void;
	onAccepted?: (transactionId: string) => void;
}

interface Write extends WriteSettings {
	path: string;
	body: IDataObject;
	action: string;
	echo: IDataObject;
}

/** An acceptance without a transaction is an unexpected answer, never a success. */
export async function postWrite(
	run: LmsRun,
	itemIndex: number,
	write: Write,
): Promise<IDataObject> {
	const accepted = await lmsRequest(run, itemIndex, {
		method: 'POST',
		path: write.path,
		body: write.body,
		action: write.action,
		deadline: write.deadline,
		answer: { schema: acceptedWriteShape, is: 'an accepted write with its transaction' },
	});
	const transaction = accepted.data;
	write.onAccepted?.(transaction.id);
	const output: IDataObject = {
		...write.echo,
		transactionId: transaction.id,
		status: transaction.status,
		message: accepted.message,
	};
	if (!write.waitForCompletion) return { ...output, confirmation: 'accepted, not confirmed' };
	write.whileWaiting?.();
	return await confirmWrite(run, itemIndex, output, write.deadline);
}

export async function confirmWrite(
	run: LmsRun,
	itemIndex: number,
	sent: IDataObject,
	deadline: Deadline,
): Promise<IDataObject> {
	const { transaction } = await waitForTransaction(run, itemIndex, String(sent.transactionId), {
		pollIntervalSec: 1,
		deadline,
		learnFrom: run.completion,
	});
	const message = transaction.response?.message ?? sent.message;
	return { ...sent, status: transaction.status, message, confirmation: 'confirmed', transaction };
}
