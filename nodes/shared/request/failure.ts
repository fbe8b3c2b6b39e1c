import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Redactor } from './secrets';

/** The one failure type of a call: read from n8n's error once, worded, then the node's masked error. */

type ProblemKind =
	| 'status'
	| 'network'
	| 'timeout'
	| 'redirect'
	| 'unexpected'
	| 'tooLarge'
	| 'cancelled'
	| 'deadline'
	| 'retryAfterTooLong'
	| 'failed';

interface ProblemDetails {
	status?: number;
	headers?: Record<string, unknown>;
	/** As n8n left it (maybe an unread stream) until the call has read it. */
	body?: unknown;
	networkCode?: string;
	target?: string;
	retryAt?: string;
	/** An earlier attempt of this call may have been carried out (it got no answer, or a 5xx). */
	repeated?: boolean;
	last?: HttpProblem;
	failure?: DeclaredFailure;
}

/** Its message is plain words, not yet masked. */
export class HttpProblem extends Error {
	constructor(
		readonly kind: ProblemKind,
		message: string,
		readonly details: ProblemDetails = {},
	) {
		super(message);
		this.name = 'HttpProblem';
	}

	get status(): number | undefined {
		return this.details.status;
	}
}

/** In words: n8n replaces any message that contains an error code with its own sentence. */
const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was closed before an answer came',
	ECONNABORTED: 'the connection was aborted',
	ETIMEDOUT: 'the connection timed out',
	ESOCKETTIMEDOUT: 'the connection timed out',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'the connection timed out',
	EPIPE: 'the connection was closed while sending',
	EAI_AGAIN: 'the host name could not be resolved',
	ENOTFOUND: 'the host was not found',
	EHOSTUNREACH: 'the host could not be reached',
	ENETUNREACH: 'the network could not be reached',
	ERR_CANCELED: 'the request was aborted',
};

interface ErrorLike {
	message?: string;
	failure?: DeclaredFailure;
	code?: string;
	httpCode?: string | null;
	response?: {
		status?: number;
		statusCode?: number;
		headers?: Record<string, unknown>;
		data?: unknown;
		body?: unknown;
	};
	cause?: ErrorLike;
	context?: { data?: unknown };
}

export function fromRequestError(error: unknown): HttpProblem {
	const chain: ErrorLike[] = [];
	let current = error as ErrorLike | undefined;
	while (current && typeof current === 'object' && chain.length < 5) {
		chain.push(current);
		current = current.cause;
	}
	const failure = chain.map((e) => e.failure).find((f) => f && typeof f === 'object');
	const response = chain.map((e) => e.response).find((r) => r && typeof r === 'object');
	const statusText = chain.map((e) => e.httpCode).find((c) => c && /^\d{3}$/.test(c));
	const status =
		response?.status ?? response?.statusCode ?? (statusText ? Number(statusText) : undefined);
	if (status) {
		return new HttpProblem('status', `HTTP ${status}`, {
			status,
			headers: lowerCased(response?.headers),
			body: response?.data ?? response?.body ?? chain.map((e) => e.context?.data).find(Boolean),
		});
	}
	// n8n 1.x wraps a network error in a NodeApiError that keeps the code only as `httpCode`.
	const code = chain
		.flatMap((e) => [e.code, e.httpCode])
		.find((c): c is string => typeof c === 'string' && c in NETWORK_WORDS);
	const hangUp = chain.some((e) => /socket hang up|network error|aborted/i.test(e.message ?? ''));
	const networkCode = code ?? (hangUp ? 'ECONNRESET' : undefined);
	if (networkCode) {
		return new HttpProblem('network', NETWORK_WORDS[networkCode], { networkCode, failure });
	}
	return new HttpProblem('failed', chain[0]?.message ?? String(error), { failure });
}

export function lowerCased(headers: Record<string, unknown> | undefined): Record<string, unknown> {
	return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Not the original error (its options hold the Authorization header and URLs); masked whole. */
export function apiError(
	node: INode,
	error: unknown,
	about: { itemIndex?: number; redactor: Redactor; action?: string; namesRecord?: boolean },
): NodeApiError {
	const { itemIndex, redactor, action } = about;
	const problem = error instanceof HttpProblem ? error : fromRequestError(error);
	const httpCode = problem.status ? String(problem.status) : undefined;
	const body = redactor.value(problem.details.body);
	const apiMessage = problem.kind === 'status' ? messageFromBody(body) : undefined;
	const what = action ? `${action} failed` : 'The request failed';
	const asked = action ? ` while ${action.charAt(0).toLowerCase()}${action.slice(1)}` : '';
	const description = describeBody(body, problem);
	const message = redactor.text(
		apiMessage ? `${apiMessage} (${problem.message}${asked})` : `${what} (${problem.message})`,
	);
	const plain: JsonObject = httpCode ? { message, httpCode } : { message };
	const nodeError = new NodeApiError(node, plain, { itemIndex, httpCode, message, description });
	return redactor.error(withFailure(nodeError, declaredFailure(problem, about)));
}

function describeBody(body: unknown, { kind, details }: HttpProblem): string | undefined {
	if (kind === 'redirect' && details.target) {
		return `Redirect target: ${details.target}. Check the base URL in the credential (for example http:// where the service wants https://).`;
	}
	if (kind === 'retryAfterTooLong' && details.retryAt) {
		return `Run the workflow again after ${details.retryAt}.`;
	}
	if (kind === 'unexpected' || body === undefined || isReadable(body)) {
		return details.networkCode ? `Network error code: ${details.networkCode}` : undefined;
	}
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

export type Readable = AsyncIterable<unknown> & { destroy(error?: Error): void };

export function isReadable(value: unknown): value is Readable {
	const { destroy, [Symbol.asyncIterator]: iterate } = (value ?? {}) as Partial<Readable>;
	return typeof destroy === 'function' && typeof iterate === 'function';
}

export function messageFromBody(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
	if (!body || typeof body !== 'object' || isReadable(body)) return undefined;
	const record = body as Record<string, unknown>;
	for (const key of ['message', 'error_description', 'error', 'detail']) {
		if (typeof record[key] === 'string') return (record[key] as string).slice(0, 300);
	}
	return undefined;
}

/** n8n 2.x's `Failure`, restated: n8n 1.x has no such type, and there the field is extra data. */
export type DeclaredFailure =
	| {
			cause: 'rate-limited' | 'quota-exhausted' | 'temporarily-unavailable';
			retryAfterMs?: number;
			resetsAtEpochMs?: number;
	  }
	| { cause: 'credential-invalid' | 'configuration-invalid' | 'node-defect' };

/** The one place deciding a cause; a 404 naming no record of the item's means a wrong base URL. */
export function declaredFailure(
	problem: HttpProblem,
	{ namesRecord = false }: { namesRecord?: boolean } = {},
): DeclaredFailure | undefined {
	const { details, kind, status } = problem;
	if (details.failure) return details.failure;
	if (kind === 'deadline') return details.last && declaredFailure(details.last, { namesRecord });
	if (kind === 'network' || kind === 'timeout' || (status && status >= 500)) {
		return { cause: 'temporarily-unavailable' };
	}
	if (kind === 'retryAfterTooLong' || status === 429) {
		const retryAfterMs = parseRetryAfter(details.headers?.['retry-after']);
		const resetsAt = details.retryAt ? Date.parse(details.retryAt) : NaN;
		return {
			cause: 'rate-limited',
			...(retryAfterMs !== undefined && { retryAfterMs }),
			...(Number.isFinite(resetsAt) && { resetsAtEpochMs: resetsAt }),
		};
	}
	if (kind !== 'status') return undefined;
	if (status === 401 || status === 403) return { cause: 'credential-invalid' };
	if (status === 404 && !namesRecord) return { cause: 'configuration-invalid' };
	return undefined;
}

export function withFailure<E extends object>(error: E, failure: DeclaredFailure | undefined): E {
	return failure ? Object.assign(error, { failure }) : error;
}

/** Delta-seconds or an HTTP date; negative numbers and past dates give 0. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^-?\d+(\.\d+)?$/.test(text)) return Math.max(0, Math.round(Number(text) * 1000));
	if (!/[a-z]/i.test(text)) return undefined;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export const RETRY_DEFAULTS = {
	maxAttempts: 5,
	/** A 401 means nothing was processed: the request is repeated with a new token, twice at most. */
	maxUnauthorizedAttempts: 3,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/** `safeToRepeat`: whether sending the request twice has the same effect as sending it once. */
export type RetryPolicy = { safeToRepeat: boolean } & Partial<typeof RETRY_DEFAULTS>;

/** Shorter Retry-After values wait the minimum; longer ones fail the item, not hold the client. */
const RETRY_AFTER_MIN_MS = 1_000;
export const RETRY_AFTER_MAX_MS = 120_000;

/** Untold, a window's end is found by retrying soon, then less often: each try costs one request. */
const UNTOLD_BACKOFF = { ...RETRY_DEFAULTS, baseDelayMs: 200 };

/** "Full jitter": a random delay up to base × 2^attempt, capped. */
export function backoffDelay(attempt: number, { baseDelayMs, maxDelayMs } = RETRY_DEFAULTS) {
	const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
	return Math.round(Math.random() * ceiling);
}

export function waitAfterThrottle(
	retryAfterHeader: unknown,
	throttledCount: number,
	sentAt = Date.now(),
	now = Date.now(),
): { waitMs: number; holdMs: number } | { tooLongMs: number; retryAt: string } {
	const asked = parseRetryAfter(retryAfterHeader, now);
	if (asked !== undefined && asked > RETRY_AFTER_MAX_MS) {
		const at = new Date(now + asked);
		return { tooLongMs: asked, retryAt: Number.isNaN(at.getTime()) ? 'never' : at.toISOString() };
	}
	const minMs = asked === undefined ? UNTOLD_BACKOFF.baseDelayMs : RETRY_AFTER_MIN_MS;
	const waitMs = Math.max(minMs, asked ?? backoffDelay(throttledCount, UNTOLD_BACKOFF));
	// Untold, the whole client holds 2 s at most (a window may refuse for a minute); the request waits.
	if (asked === undefined) return { waitMs, holdMs: Math.min(waitMs, 2_000) };
	const fromSend = countedFromSend(waitMs, sentAt, now);
	return { waitMs: fromSend, holdMs: fromSend };
}

/** Told, from the send (at most half earlier): the platform counts from its answer, not ours. */
export function countedFromSend(waitMs: number, sentAt: number, now = Date.now()): number {
	return waitMs - Math.min(now - sentAt, waitMs / 2);
}

/** A request that has no answer within its credential's Request Timeout (or its default) times out. */
export function requestTimeoutMs(credentials: { requestTimeout?: unknown }, defaultSec: number) {
	const seconds = Number(credentials.requestTimeout);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : defaultSec) * 1000;
}
