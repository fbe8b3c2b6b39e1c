import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Redactor } from './redact';
import { parseRetryAfter } from './retry';

/**
 * A call's one failure type. n8n's request helper throws its own errors; `fromRequestError`
 * reads them once into an HttpProblem, the call adds what it learns (attempts, deadline), and
 * `apiError` turns it into the NodeApiError the user sees. Nothing else in between.
 */

/** What went wrong with a request, in terms a message can be built from. */
export type ProblemKind =
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

export interface ProblemDetails {
	status?: number;
	contentType?: string;
	/** The answer's headers (lower-case names), when there was an answer. */
	headers?: Record<string, unknown>;
	/**
	 * The answer's body: parsed JSON where it was JSON, else its (capped) text; as n8n left it
	 * (possibly an unread stream) until the call has read it.
	 */
	body?: unknown;
	networkCode?: string;
	/** Where a refused redirect pointed. */
	target?: string;
	/** When the platform asked to be retried (Retry-After beyond what the node waits). */
	retryAt?: string;
	/** Requests sent for this call, retries included. */
	attempts?: number;
	/** An earlier attempt of this call may have been carried out (it got no answer, or a 5xx). */
	repeated?: boolean;
	/** For a deadline: what the last attempt ran into. */
	last?: HttpProblem;
	/** The cause an inner error already declared (a token request the credential made). */
	failure?: DeclaredFailure;
}

/** A request that did not give a usable answer. Its message is plain words, not yet masked. */
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

/**
 * Plain words for a network error code. Messages carry these rather than the codes because
 * n8n replaces any message that contains a code with its own generic sentence.
 */
export function networkWords(code: string): string {
	return NETWORK_WORDS[code] ?? 'a network error';
}

interface ResponseLike {
	status?: number;
	statusCode?: number;
	headers?: Record<string, unknown>;
	data?: unknown;
	body?: unknown;
}

interface ErrorLike {
	message?: string;
	failure?: DeclaredFailure;
	code?: string;
	httpCode?: string | null;
	response?: ResponseLike;
	cause?: ErrorLike;
	context?: { data?: unknown };
}

/**
 * Reads what n8n's request helper threw, whichever layer (axios, n8n 1.x or 2.x) wrapped it: a
 * `status` problem carrying the answer (headers and body as n8n left them), a `network` one
 * with its code, or a `failed` one with the error's own words (e.g. a credential that could not
 * get a token).
 */
export function fromRequestError(error: unknown): HttpProblem {
	const chain: ErrorLike[] = [];
	let current = error as ErrorLike | undefined;
	while (current && typeof current === 'object' && chain.length < 5) {
		chain.push(current);
		current = current.cause;
	}
	const message = chain[0]?.message ?? String(error);
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
		return new HttpProblem('network', networkWords(networkCode), { networkCode, failure });
	}
	return new HttpProblem('failed', message, { failure });
}

export function lowerCased(headers: Record<string, unknown> | undefined): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
	return out;
}

/**
 * The NodeApiError for a failed call, carrying only what the user needs: what was asked, what
 * went wrong, the API's own message and a capped, masked body. The original error (whose
 * request options hold the Authorization header and URLs) is deliberately not kept.
 */
export function apiError(
	node: INode,
	error: unknown,
	{
		itemIndex,
		redactor,
		action,
		namesRecord,
	}: { itemIndex?: number; redactor: Redactor; action?: string; namesRecord?: boolean },
): NodeApiError {
	const problem = error instanceof HttpProblem ? error : fromRequestError(error);
	const status = problem.status;
	const body = redactor.value(problem.details.body);
	const apiMessage = problem.kind === 'status' ? messageFromBody(body) : undefined;
	const what = action ? `${action} failed` : 'The request failed';
	const description = describeBody(body, problem);
	// The platform's own reason comes first when it gives one; what was asked follows.
	const message = redactor.text(
		apiMessage
			? `${apiMessage} (${problem.message}${action ? ` while ${lowerFirst(action)}` : ''})`
			: `${what} (${problem.message})`,
	);
	const plain: JsonObject = { message };
	if (status) plain.httpCode = String(status);
	const nodeError = new NodeApiError(node, plain, {
		itemIndex,
		httpCode: status ? String(status) : undefined,
		message,
		description: description && redactor.text(description),
	});
	return redactor.error(withFailure(nodeError, declaredFailure(problem, { namesRecord })));
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

function describeBody(body: unknown, problem: HttpProblem): string | undefined {
	if (problem.kind === 'redirect' && problem.details.target) {
		return `Redirect target: ${problem.details.target}. Check the base URL in the credential (for example http:// where the service wants https://).`;
	}
	if (problem.kind === 'retryAfterTooLong' && problem.details.retryAt) {
		return `Run the workflow again after ${problem.details.retryAt}.`;
	}
	if (problem.kind === 'unexpected' || body === undefined || isStream(body)) {
		return problem.details.networkCode
			? `Network error code: ${problem.details.networkCode}`
			: undefined;
	}
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

function isStream(value: unknown): boolean {
	return typeof (value as { pipe?: unknown } | null)?.pipe === 'function';
}

/** The API's own message in an answer body: its text, or the first of its message fields. */
export function messageFromBody(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
	if (!body || typeof body !== 'object' || isStream(body)) return undefined;
	const record = body as Record<string, unknown>;
	for (const key of ['message', 'error_description', 'error', 'detail']) {
		if (typeof record[key] === 'string') return (record[key] as string).slice(0, 300);
	}
	return undefined;
}

/**
 * Why an operation failed, as n8n 2.x reads it from an error's `failure` (n8n-workflow's
 * `Failure`; its poll back-off follows the cause chain): a timed cause waits at least the time
 * declared, an actionable one backs off the most. Restated here, not imported: n8n 1.x has no
 * such type, and there the field is extra data.
 */
export type DeclaredFailure =
	| {
			cause: 'rate-limited' | 'quota-exhausted' | 'temporarily-unavailable';
			retryAfterMs?: number;
			resetsAtEpochMs?: number;
	  }
	| { cause: 'credential-invalid' | 'configuration-invalid' | 'node-defect' };

/**
 * The one place that decides a failure's cause. A 429 not waited out is `rate-limited` with the
 * wait asked for; a 5xx, network failure or timeout that retries did not overcome is
 * `temporarily-unavailable`; a 401 or 403 that a new token did not cure is `credential-invalid`;
 * a 404 on a request naming no record of the item's (a collection of the API, so the base URL
 * or endpoint points at nothing) is `configuration-invalid`. Anything else, input errors
 * included, declares nothing.
 */
export function declaredFailure(
	problem: HttpProblem,
	{ namesRecord = false, now = Date.now() }: { namesRecord?: boolean; now?: number } = {},
): DeclaredFailure | undefined {
	const { details, kind, status } = problem;
	if (details.failure) return details.failure;
	if (kind === 'deadline')
		return details.last && declaredFailure(details.last, { namesRecord, now });
	if (kind === 'network' || kind === 'timeout' || (status && status >= 500)) {
		return { cause: 'temporarily-unavailable' };
	}
	if (kind === 'retryAfterTooLong' || status === 429) {
		const retryAfterMs = parseRetryAfter(details.headers?.['retry-after'], now);
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

/**
 * The cause of a failed token request: a refusal of the client credentials (400, 401, 403) is
 * `credential-invalid`, a token endpoint that is not there (404) `configuration-invalid`, no
 * answer in time `temporarily-unavailable`, the rest as any call.
 */
export function tokenRequestFailure(
	error: unknown,
	timedOut: boolean,
): DeclaredFailure | undefined {
	if (timedOut) return { cause: 'temporarily-unavailable' };
	const problem = error instanceof HttpProblem ? error : fromRequestError(error);
	const { status } = problem;
	if (problem.kind === 'status' && (status === 400 || status === 401 || status === 403)) {
		return { cause: 'credential-invalid' };
	}
	return declaredFailure(problem);
}

/** Puts the declared cause on an error (as plain data, readable on both n8n majors). */
export function withFailure<E extends object>(error: E, failure: DeclaredFailure | undefined): E {
	if (failure) Object.assign(error, { failure });
	return error;
}
