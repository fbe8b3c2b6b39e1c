import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { Deadline } from '../pacing/deadline';
import type { RequestThrottle } from '../pacing/throttle';
import { anySignal, pause } from '../pacing/waiting';
import type { BodyText } from './answer';
import {
	MAX_ANSWER_BYTES,
	MAX_ERROR_BODY_BYTES,
	errorBodyOf,
	heapBytesOf,
	jsonOf,
	readBody,
} from './answer';
import { HttpProblem, fromRequestError, lowerCased } from './failure';
import type { RetryPolicy } from './retry';
import { RETRY_AFTER_MAX_MS, RETRY_DEFAULTS, backoffDelay, waitAfterThrottle } from './retry';

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
	/** The memory the answer takes, in bytes: its body as received and its parsed JSON. */
	bytes: number;
	/** The answer's headers, lower-case names. */
	headers: Record<string, unknown>;
}

interface RawAnswer extends BodyText {
	status: number;
	headers: Record<string, unknown>;
}

/** What one attempt leads to. */
type Next =
	| { to: 'done'; answer: ApiAnswer }
	| { to: 'redirect'; url: string }
	| { to: 'retry'; waitMs: number; throttled: boolean }
	| { to: 'fail'; problem: HttpProblem };

/**
 * One API call through n8n's request helper (so proxies, credentials and token refresh work
 * as n8n users expect), with what n8n does not do for us: a deadline on every answer, no
 * automatic redirects (the credentials would follow them), bounded answer bodies, JSON
 * required, and retries as the call's safety allows. Throws HttpProblem.
 *
 * The loop ends: every pass is one attempt or one redirect, and `Tries` bounds both.
 */
export async function callApi(context: RequestingFunctions, call: ApiCall): Promise<ApiAnswer> {
	const tries = new Tries({ ...RETRY_DEFAULTS, ...call.retry });
	let url = call.url;
	let qs = call.qs;
	for (;;) {
		await takeTurn(call, tries);
		const next = await attempt(context, call, url, qs, tries);
		if (next.to === 'done') return next.answer;
		if (next.to === 'fail') throw next.problem;
		if (next.to === 'redirect') {
			url = next.url;
			qs = undefined;
			continue;
		}
		if (next.throttled && call.throttle) call.throttle.throttled(next.waitMs);
		else await backoff(call.deadline, next.waitMs);
	}
}

/** How often each kind of failure may be tried again, and what the last attempt ran into. */
class Tries {
	sent = 0;

	/** Attempts that may have been carried out without our hearing so: no answer, or a 5xx. */
	unsure = 0;

	last: HttpProblem | undefined;

	private readonly counts = { failed: 0, throttled: 0, unauthorized: 0, redirects: 0 };

	constructor(private readonly policy: Required<RetryPolicy>) {}

	/** Counts one more of `kind`; true while that kind may still be tried again. */
	another(kind: 'failed' | 'throttled' | 'unauthorized'): boolean {
		const limit = {
			failed: this.policy.safeToRepeat ? this.policy.maxAttempts : 0,
			throttled: this.policy.maxThrottledAttempts,
			unauthorized: this.policy.maxUnauthorizedAttempts,
		}[kind];
		return ++this.counts[kind] < limit;
	}

	redirected(): number {
		return ++this.counts.redirects;
	}

	backoffMs(): number {
		return backoffDelay(this.counts.failed, this.policy.baseDelayMs, this.policy.maxDelayMs);
	}

	throttledCount(): number {
		return this.counts.throttled;
	}
}

/** Waits for the call's turn: refused once cancelled, past the deadline, or stopped. */
async function takeTurn(call: ApiCall, tries: Tries): Promise<void> {
	const stopped = stopReason(call.deadline, tries);
	if (stopped) throw stopped;
	if (call.throttle) {
		const refused = await call.throttle.acquire(call.deadline);
		if (refused) throw stopReason(call.deadline, tries, refused)!;
	}
	if (call.stopped?.()) {
		throw new HttpProblem('cancelled', 'not sent: the run stopped at an earlier item', {
			attempts: tries.sent,
		});
	}
}

/** Sends once and judges the answer. */
async function attempt(
	context: RequestingFunctions,
	call: ApiCall,
	url: string,
	qs: IDataObject | undefined,
	tries: Tries,
): Promise<Next> {
	tries.sent++;
	let raw: RawAnswer;
	try {
		raw = await sendOnce(context, call, url, qs);
	} catch (caught) {
		const problem = call.deadline.cancelled
			? new HttpProblem('cancelled', 'the execution was cancelled')
			: (caught as HttpProblem);
		problem.details.attempts = tries.sent;
		tries.last = problem;
		const transient = problem.kind === 'network' || problem.kind === 'timeout';
		if (transient) tries.unsure++;
		if (transient && tries.another('failed')) {
			return { to: 'retry', waitMs: tries.backoffMs(), throttled: false };
		}
		return { to: 'fail', problem };
	}
	return judge(call, url, raw, tries);
}

/** What an answer means for the call: done, a redirect to follow, a retry, or a failure. */
function judge(call: ApiCall, url: string, raw: RawAnswer, tries: Tries): Next {
	const contentType = String(raw.headers['content-type'] ?? '');
	const { status } = raw;
	if (status >= 200 && status < 300) {
		if (raw.truncated) {
			const problem = new HttpProblem(
				'tooLarge',
				`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`,
				{ status, contentType, attempts: tries.sent },
			);
			return { to: 'fail', problem };
		}
		const body = jsonOf(status, contentType, raw.text, { allowEmpty: call.allowEmpty });
		return {
			to: 'done',
			answer: {
				status,
				contentType,
				body,
				attempts: tries.sent,
				bytes: raw.bytes + heapBytesOf(body),
				headers: raw.headers,
			},
		};
	}
	if (status >= 300 && status < 400) {
		return { to: 'redirect', url: redirectTarget(call, url, raw, tries.redirected()) };
	}
	const problem = new HttpProblem('status', `HTTP ${status}`, {
		status,
		contentType,
		headers: raw.headers,
		body: errorBodyOf(raw.text),
		attempts: tries.sent,
		repeated: tries.unsure > 0,
	});
	tries.last = problem;
	if (status >= 500) tries.unsure++;
	if (status === 429 && tries.another('throttled')) {
		const wait = waitAfterThrottle(raw.headers['retry-after'], tries.throttledCount());
		if ('tooLongMs' in wait) {
			return { to: 'fail', problem: retryAfterTooLong(problem, wait.tooLongMs, wait.retryAt) };
		}
		return { to: 'retry', waitMs: wait.waitMs, throttled: true };
	}
	if (status === 401 && tries.another('unauthorized')) {
		return { to: 'retry', waitMs: 0, throttled: false };
	}
	if (status >= 500 && tries.another('failed')) {
		return { to: 'retry', waitMs: tries.backoffMs(), throttled: false };
	}
	return { to: 'fail', problem };
}

/**
 * Sends one request and reads its answer (any status) within the attempt's time.
 *
 * n8n's `httpRequestWithAuthentication` replaces a request's `abortSignal` with what the
 * calling context's `getExecutionCancelSignal` returns. So the request is made with a context
 * whose signal is this attempt's: the attempt's time limit, and the execution's cancellation
 * only where the call's deadline carries it. A write whose deadline does not (Sync Catalog's,
 * once sent) is not cut off by a cancelled execution, so its answer and transaction are never
 * lost. Nothing else of n8n's context is changed.
 */
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
	type Response = { body?: unknown; headers?: Record<string, unknown>; statusCode?: number };
	const scoped = Object.create(context, {
		getExecutionCancelSignal: { value: () => signal },
	}) as RequestingFunctions;
	try {
		let response: Response;
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(
				scoped,
				call.credentialType,
				options,
			)) as Response;
		} catch (error) {
			const problem = fromRequestError(error);
			if (problem.kind !== 'status') throw reclassified(problem, timer, cancel, timeoutMs);
			const text = await readBody(problem.details.body, MAX_ERROR_BODY_BYTES, signal).catch(
				(): BodyText => ({ text: '', truncated: false, bytes: 0 }),
			);
			return { status: problem.status!, headers: problem.details.headers ?? {}, ...text };
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

/** A request that got no answer: cancelled, out of time, or the network's fault. */
function reclassified(
	problem: HttpProblem,
	timer: AbortSignal,
	cancel: AbortSignal | undefined,
	timeoutMs: number,
): HttpProblem {
	if (cancel?.aborted) return new HttpProblem('cancelled', 'the execution was cancelled');
	const code = problem.details.networkCode;
	if (timer.aborted || code === 'ETIMEDOUT' || code === 'ECONNABORTED') {
		return new HttpProblem('timeout', `no answer within ${seconds(timeoutMs)}`, {
			networkCode: 'ETIMEDOUT',
		});
	}
	// A network failure keeps its words; anything else (e.g. the credential could not get a
	// token) keeps its own.
	return problem;
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
			{ status: raw.status, contentType },
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
	tries: Tries,
	refused?: 'cancelled' | 'deadline',
): HttpProblem | undefined {
	const { last, sent: attempts } = tries;
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

export function seconds(ms: number): string {
	const s = ms / 1000;
	return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
