import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { BodyText } from './answer';
import {
	HttpProblem,
	MAX_ANSWER_BYTES,
	MAX_ERROR_BODY_BYTES,
	errorBodyOf,
	jsonOf,
	readBody,
} from './answer';
import type { Deadline } from './deadline';
import { anySignal, pause } from './deadline';
import { describeHttpFailure, networkWords } from './httpFailure';
import type { RetryPolicy } from './retry';
import { RETRY_AFTER_MAX_MS, RETRY_DEFAULTS, backoffDelay, waitAfterThrottle } from './retry';
import type { RequestThrottle } from './throttle';

/** Action nodes, the polling trigger and the editor's list searches send requests. */
export type RequestingFunctions = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** Same-origin redirects followed per call at most. */
const MAX_REDIRECTS = 5;

export interface ApiCall {
	credentialType: string;
	method: IHttpRequestMethods;
	/** Absolute URL. */
	url: string;
	qs?: IDataObject;
	body?: unknown;
	headers?: IDataObject;
	/**
	 * The origin (scheme, host, port) the credentials belong to. Requests, and so the
	 * credentials, go nowhere else: a redirect to another origin is refused.
	 */
	origin: string;
	/** Longest wait for one answer, headers and body. */
	requestTimeoutMs: number;
	/** Bounds the whole call: attempts, throttle slots, backoff. */
	deadline: Deadline;
	retry: RetryPolicy;
	throttle?: RequestThrottle;
	/** Whether an empty successful answer is acceptable (else it is an unexpected answer). */
	allowEmpty?: boolean;
	/** True once the run has stopped at another item: nothing more may be sent. */
	stopped?: () => boolean;
}

export interface ApiAnswer {
	status: number;
	contentType: string;
	/** The parsed JSON (undefined only for an allowed empty answer). */
	body: unknown;
	attempts: number;
	/** The size of the body as received, in bytes. */
	bytes: number;
	/** The answer's headers, names in lower case. */
	headers: Record<string, unknown>;
}

interface RawAnswer extends BodyText {
	status: number;
	headers: Record<string, unknown>;
}

/**
 * One API call through n8n's request helper (so proxies, credentials and token refresh work
 * as n8n users expect), with what n8n does not do for us: a deadline on every answer, no
 * automatic redirects (the credentials would follow them), bounded answer bodies, JSON
 * required, and retries as the call's safety allows. Throws HttpProblem.
 */
export async function callApi(context: RequestingFunctions, call: ApiCall): Promise<ApiAnswer> {
	const policy = { ...RETRY_DEFAULTS, ...call.retry };
	let url = call.url;
	let qs = call.qs;
	let attempts = 0;
	let failures = 0;
	let throttled = 0;
	let unauthorized = 0;
	let redirects = 0;
	let last: HttpProblem | undefined;
	for (;;) {
		const stopped = stopReason(call.deadline, last, attempts);
		if (stopped) throw stopped;
		if (call.throttle) {
			const refused = await call.throttle.acquire(call.deadline);
			if (refused) throw stopReason(call.deadline, last, attempts, refused)!;
		}
		if (call.stopped?.()) {
			throw new HttpProblem('cancelled', 'not sent: the run stopped at an earlier item', {
				attempts,
			});
		}
		attempts++;
		let raw: RawAnswer;
		try {
			raw = await sendOnce(context, call, url, qs);
		} catch (problem) {
			last = call.deadline.cancelled
				? new HttpProblem('cancelled', 'the execution was cancelled', { attempts })
				: withAttempts(problem as HttpProblem, attempts);
			if (last.kind === 'cancelled') throw last;
			const transient = last.kind === 'network' || last.kind === 'timeout';
			if (transient && call.retry.safeToRepeat && ++failures < policy.maxAttempts) {
				await backoff(call.deadline, backoffDelay(failures, policy.baseDelayMs, policy.maxDelayMs));
				continue;
			}
			throw last;
		}
		const contentType = String(raw.headers['content-type'] ?? '');
		if (raw.status >= 200 && raw.status < 300) {
			if (raw.truncated) {
				throw new HttpProblem(
					'tooLarge',
					`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`,
					{ status: raw.status, contentType, attempts },
				);
			}
			const body = jsonOf(raw.status, contentType, raw.text, { allowEmpty: call.allowEmpty });
			return {
				status: raw.status,
				contentType,
				body,
				attempts,
				bytes: raw.bytes,
				headers: raw.headers,
			};
		}
		if (raw.status >= 300 && raw.status < 400) {
			const next = redirectTarget(call, url, raw, ++redirects);
			url = next;
			qs = undefined;
			continue;
		}
		last = statusProblem(raw, contentType, attempts);
		if (raw.status === 429 && ++throttled < policy.maxThrottledAttempts) {
			const wait = waitAfterThrottle(raw.headers['retry-after'], throttled);
			if ('tooLongMs' in wait) throw retryAfterTooLong(last, wait.tooLongMs, wait.retryAt);
			if (call.throttle) call.throttle.throttled(wait.waitMs);
			else await backoff(call.deadline, wait.waitMs);
			continue;
		}
		if (raw.status === 401 && ++unauthorized < policy.maxUnauthorizedAttempts) continue;
		if (raw.status >= 500 && call.retry.safeToRepeat && ++failures < policy.maxAttempts) {
			await backoff(call.deadline, backoffDelay(failures, policy.baseDelayMs, policy.maxDelayMs));
			continue;
		}
		throw last;
	}
}

/** Sends one request and reads its answer (any status) within the attempt's time. */
async function sendOnce(
	context: RequestingFunctions,
	call: ApiCall,
	url: string,
	qs: IDataObject | undefined,
): Promise<RawAnswer> {
	const timeoutMs = Math.max(1, Math.min(call.requestTimeoutMs, call.deadline.remainingMs()));
	const timer = AbortSignal.timeout(timeoutMs);
	const cancel = call.deadline.cancelSignal;
	const { signal, dispose } = anySignal([timer, cancel]);
	// n8n hands requests the execution's cancel signal; this one also ends at the attempt's time.
	const scoped = Object.create(context, {
		getExecutionCancelSignal: { value: () => signal },
	}) as RequestingFunctions;
	const options: IHttpRequestOptions = {
		method: call.method,
		url,
		qs,
		body: call.body as IHttpRequestOptions['body'],
		headers: call.headers,
		json: true,
		encoding: 'stream',
		returnFullResponse: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: timeoutMs,
		abortSignal: signal,
	};
	try {
		let response: { body?: unknown; headers?: Record<string, unknown>; statusCode?: number };
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(
				scoped,
				call.credentialType,
				options,
			)) as typeof response;
		} catch (error) {
			const failure = describeHttpFailure(error);
			if (failure.status === undefined) throw transportProblem(failure, timer, cancel, timeoutMs);
			const text = await readBody(failure.body, MAX_ERROR_BODY_BYTES, signal).catch(
				(): BodyText => ({ text: '', truncated: false, bytes: 0 }),
			);
			return { status: failure.status, headers: lowerCased(failure.headers), ...text };
		}
		const text = await readBody(response.body, MAX_ANSWER_BYTES, signal);
		return {
			status: Number(response.statusCode ?? 200),
			headers: lowerCased(response.headers),
			...text,
		};
	} finally {
		dispose();
	}
}

function transportProblem(
	failure: ReturnType<typeof describeHttpFailure>,
	timer: AbortSignal,
	cancel: AbortSignal | undefined,
	timeoutMs: number,
): HttpProblem {
	if (cancel?.aborted) return new HttpProblem('cancelled', 'the execution was cancelled');
	if (
		timer.aborted ||
		failure.networkCode === 'ETIMEDOUT' ||
		failure.networkCode === 'ECONNABORTED'
	) {
		return new HttpProblem('timeout', `no answer within ${seconds(timeoutMs)}`, {
			networkCode: 'ETIMEDOUT',
		});
	}
	if (failure.networkCode) {
		return new HttpProblem('network', networkWords(failure.networkCode), {
			networkCode: failure.networkCode,
		});
	}
	// Not the network: e.g. the credential could not get a token. Its own words say what.
	return new HttpProblem('failed', failure.message);
}

function lowerCased(headers: Record<string, unknown> | undefined): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
	return out;
}

function statusProblem(raw: RawAnswer, contentType: string, attempts: number): HttpProblem {
	return new HttpProblem('status', `HTTP ${raw.status}`, {
		status: raw.status,
		contentType,
		body: errorBodyOf(raw.text),
		attempts,
	});
}

/**
 * Where a redirect may be followed: only within the call's origin (with the method kept only
 * where HTTP keeps it), at most MAX_REDIRECTS times. Anything else is refused, naming the
 * target, so that the credentials never travel to another host.
 */
function redirectTarget(call: ApiCall, from: string, raw: RawAnswer, hops: number): string {
	const location = String(raw.headers.location ?? '').trim();
	const contentType = String(raw.headers['content-type'] ?? '');
	let target: URL | undefined;
	try {
		target = location ? new URL(location, from) : undefined;
	} catch {
		target = undefined;
	}
	if (!target) {
		throw new HttpProblem(
			'unexpected',
			`unexpected answer (HTTP ${raw.status} without a usable Location)`,
			{
				status: raw.status,
				contentType,
			},
		);
	}
	const shown = `${target.protocol}//${target.host}${target.pathname}`;
	if (target.origin !== call.origin) {
		throw new HttpProblem(
			'redirect',
			`the server redirected (HTTP ${raw.status}) to another host, ${target.host}; the redirect was not followed, so the credentials stay with ${call.origin}`,
			{ status: raw.status, target: shown },
		);
	}
	const keepsMethod = raw.status === 307 || raw.status === 308;
	if (!keepsMethod && call.method !== 'GET') {
		throw new HttpProblem(
			'redirect',
			`the server redirected the ${call.method} (HTTP ${raw.status}) to ${target.pathname}; it was not followed, since HTTP would turn it into a GET`,
			{ status: raw.status, target: shown },
		);
	}
	if (hops > MAX_REDIRECTS) {
		throw new HttpProblem('redirect', `the server redirected more than ${MAX_REDIRECTS} times`, {
			status: raw.status,
			target: shown,
		});
	}
	return target.toString();
}

function retryAfterTooLong(last: HttpProblem, askedMs: number, retryAt: string): HttpProblem {
	return new HttpProblem(
		'retryAfterTooLong',
		`HTTP 429: the service asks to wait ${seconds(askedMs)} before retrying (until ${retryAt}), longer than the ${seconds(RETRY_AFTER_MAX_MS)} the node waits`,
		{ ...last.details, retryAt },
	);
}

/** Why the call may not go on: the run was cancelled, or its deadline passed. */
function stopReason(
	deadline: Deadline,
	last: HttpProblem | undefined,
	attempts: number,
	refused?: 'cancelled' | 'deadline',
): HttpProblem | undefined {
	if (deadline.cancelled || refused === 'cancelled') {
		return new HttpProblem('cancelled', 'the execution was cancelled', { attempts });
	}
	if (deadline.expired || refused === 'deadline') {
		const lastWords = last ? `; the last attempt: ${last.message}` : '';
		return new HttpProblem(
			'deadline',
			`no usable answer within the ${seconds(deadline.budgetMs)} allowed${lastWords}`,
			{ ...(last?.details ?? {}), attempts, last },
		);
	}
	return undefined;
}

/** Backoff that never sleeps past the deadline and ends on cancellation. */
async function backoff(deadline: Deadline, ms: number): Promise<void> {
	await pause(Math.min(ms, deadline.remainingMs()), deadline.cancelSignal);
}

function withAttempts(problem: HttpProblem, attempts: number): HttpProblem {
	if (!(problem instanceof HttpProblem)) {
		return new HttpProblem('failed', String((problem as Error)?.message ?? problem), { attempts });
	}
	problem.details.attempts = attempts;
	return problem;
}

export function seconds(ms: number): string {
	const s = ms / 1000;
	return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
