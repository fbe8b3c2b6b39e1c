import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import { anySignal, pause, untilAborted, type Deadline, type Throttle } from '../pacing/time';
import {
	type BodyText,
	MAX_ANSWER_BYTES,
	MAX_ERROR_BODY_BYTES,
	errorBodyOf,
	jsonOf,
	readBody,
} from './body';
import {
	HttpProblem,
	RETRY_AFTER_MAX_MS,
	RETRY_DEFAULTS,
	type RetryPolicy,
	backoffDelay,
	fromRequestError,
	lowerCased,
	waitAfterThrottle,
} from './failure';
import { type HeldToken, type TokenGate, isLive, refuseToken } from './clientCredentials';

export type RequestingFunctions = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** What every request of one execution carries, made by the item router before the first item; nodes add their parts. */
export interface Run {
	readonly fns: RequestingFunctions;
	readonly cancelSignal?: AbortSignal;
	/** Set once an item failed and the run will stop: nothing more may be sent. */
	stopped: boolean;
	mask<E>(error: E): E;
	/** An API that echoes what it was sent must not put a credential in the output. */
	maskOutput<T>(value: T): T;
	/** Ends early on cancel; with `startsAtFirstSlot`, counted from the first throttle slot. */
	deadline(budgetMs: number, options?: { startsAtFirstSlot?: boolean }): Deadline;
}

const MAX_REDIRECTS = 5;

export interface ApiCall {
	credentialType: string;
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	body?: unknown;
	headers?: IDataObject;
	/** Requests, and so the credentials, go only to this origin: a redirect elsewhere is refused. */
	origin: string;
	requestTimeoutMs: number;
	deadline: Deadline;
	retry: RetryPolicy;
	throttle?: Throttle;
	allowEmpty?: boolean;
	stopped?: () => boolean;
	/** OAuth2: the live token, had before the request's turn (clientCredentials.ts). */
	token?: TokenGate;
}

export interface ApiAnswer {
	status: number;
	contentType: string;
	body: unknown;
	/** As received (a page walk's guard adds what the parsed body holds). */
	bytes: number;
	headers: Record<string, unknown>;
}

type RawAnswer = BodyText & Pick<ApiAnswer, 'status' | 'headers'>;

type Next =
	| { to: 'done'; answer: ApiAnswer }
	| { to: 'redirect'; url: string }
	| { to: 'retry'; waitMs: number; holdMs?: number };

/** n8n's helper plus deadlines, no redirects, bounded JSON, safe retries; `Tries` ends the loop. */
export async function callApi(context: RequestingFunctions, call: ApiCall): Promise<ApiAnswer> {
	const tries = new Tries({ ...RETRY_DEFAULTS, ...call.retry }, call.token !== undefined);
	let url = call.url;
	let qs = call.qs;
	for (;;) {
		// The token first: a request never waits for one inside its turn, nor leaves beside the pace.
		let held = call.token && (await tokenFor(call, tries));
		// Refused (a 401) while this request waited: the new token if it came, else no slot yet.
		const sendable = () => !held || isLive(held) || (held = call.token!.held()) !== undefined;
		if (!(await takeTurn(call, tries, sendable))) continue;
		tries.sentAt = Date.now();
		const next = await sendOnce(context, call, url, qs).then(
			(raw) => judge(call, url, raw, tries, held),
			(caught: HttpProblem) => tries.after(call.deadline.cancelled ? cancelled() : caught),
		);
		if (next.to === 'done') return next.answer;
		const { deadline } = call;
		if (next.to === 'redirect') [url, qs] = [next.url, undefined];
		else if (next.holdMs && call.throttle) call.throttle.throttled(next.holdMs);
		// A 429 holds the whole client; the request waits alone for what the hold does not cover.
		if (next.to === 'retry' && next.waitMs > (call.throttle ? (next.holdMs ?? 0) : 0)) {
			await pause(Math.min(next.waitMs, deadline.remainingMs()), deadline.cancelSignal);
		}
	}
}

class Tries {
	/** Attempts that may have been carried out without our hearing so: no answer, or a 5xx. */
	unsure = 0;

	last: HttpProblem | undefined;
	sentAt = 0; // the last attempt's: a 429's Retry-After counts from it

	readonly counts = { failed: 0, throttled: 0, unauthorized: 0, redirects: 0 };

	constructor(
		private readonly policy: Required<RetryPolicy>,
		/** A 401 gets a new token (OAuth2); a fixed Token or Basic pair is tried once more, as n8n did. */
		private readonly renewable: boolean,
	) {}

	/** No answer or a 5xx is retried only when safe to repeat; a 429 or a 401 regardless. */
	after(problem: HttpProblem): Next {
		const { policy, counts } = this;
		const { kind, details, status = 0 } = problem;
		this.last = problem;
		const transient = kind === 'network' || kind === 'timeout' || status >= 500;
		if (transient) this.unsure++;
		// Not processed: repeated until the deadline (a count ran out while a busier worker took all).
		if (status === 429) {
			const retryAfter = details.headers?.['retry-after'];
			const wait = waitAfterThrottle(retryAfter, ++counts.throttled, this.sentAt);
			if ('waitMs' in wait) return { to: 'retry', ...wait };
			const { tooLongMs, retryAt } = wait;
			const words = `HTTP 429: the service asks to wait ${seconds(tooLongMs)} before retrying (until ${retryAt}), longer than the ${seconds(RETRY_AFTER_MAX_MS)} the node waits`;
			throw new HttpProblem('retryAfterTooLong', words, { ...details, retryAt });
		}
		const unauthorizedAttempts = this.renewable ? policy.maxUnauthorizedAttempts : 2;
		if (status === 401 && ++counts.unauthorized < unauthorizedAttempts) {
			return { to: 'retry', waitMs: 0 };
		}
		if (transient && policy.safeToRepeat && ++counts.failed < policy.maxAttempts) {
			return { to: 'retry', waitMs: backoffDelay(counts.failed, policy) };
		}
		throw problem;
	}
}

const cancelled = () => new HttpProblem('cancelled', 'the execution was cancelled');

function outOfTime({ deadline }: ApiCall, { last }: Tries): HttpProblem {
	const lastWords = last ? `; the last attempt: ${last.message}` : '';
	const words = `no usable answer within the ${seconds(deadline.budgetMs)} allowed${lastWords}`;
	return new HttpProblem('deadline', words, { ...last?.details, last });
}

/** Ends with the call's deadline or Stop: the token request behind it keeps its own Timeout. */
async function tokenFor(call: ApiCall, tries: Tries): Promise<HeldToken> {
	const { deadline } = call;
	const timer = AbortSignal.timeout(Math.max(1, deadline.remainingMs()));
	const { signal, dispose } = anySignal([timer, deadline.cancelSignal]);
	try {
		return await untilAborted(call.token!.live(), signal);
	} catch (error) {
		if (deadline.cancelled) throw cancelled();
		throw signal.aborted ? outOfTime(call, tries) : fromRequestError(error);
	} finally {
		dispose();
	}
}

/**
 * False when the request cannot go yet (its token died): it waits for the new one, then books.
 * The deadline's own state first: a throttle may refuse for the deadline just as it is cancelled.
 */
async function takeTurn(call: ApiCall, tries: Tries, sendable: () => boolean): Promise<boolean> {
	const { deadline } = call;
	const refused =
		deadline.cancelled || deadline.expired
			? 'deadline'
			: await call.throttle?.acquire(deadline, sendable);
	if (refused && (deadline.cancelled || refused === 'cancelled')) throw cancelled();
	if (refused === 'unsendable') return false;
	if (refused) throw outOfTime(call, tries);
	deadline.start(); // if no throttle did: it bounds the retries
	if (call.stopped?.()) {
		throw new HttpProblem('cancelled', 'not sent: the run stopped at an earlier item');
	}
	return sendable();
}

function judge(call: ApiCall, url: string, raw: RawAnswer, tries: Tries, held?: HeldToken): Next {
	const contentType = String(raw.headers['content-type'] ?? '');
	const { status, headers } = raw;
	if (status >= 200 && status < 300) {
		if (raw.truncated) {
			const words = `the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`;
			throw new HttpProblem('tooLarge', words, { status });
		}
		const body = jsonOf(status, contentType, raw.text, { allowEmpty: call.allowEmpty });
		const answer = { status, contentType, body, bytes: raw.bytes, headers };
		return { to: 'done', answer };
	}
	if (status >= 300 && status < 400) {
		return { to: 'redirect', url: redirectTarget(call, url, raw, ++tries.counts.redirects) };
	}
	if (status === 401 && held) {
		refuseToken(held);
		call.throttle?.rebook();
	}
	const details = { status, headers, body: errorBodyOf(raw.text), repeated: tries.unsure > 0 };
	return tries.after(new HttpProblem('status', `HTTP ${status}`, details));
}

/**
 * n8n's helper replaces `abortSignal` with the context's `getExecutionCancelSignal`, so the scoped
 * context gives this attempt's: a write whose deadline carries no cancel is never cut off.
 */
async function sendOnce(
	context: RequestingFunctions,
	call: ApiCall,
	url: string,
	qs: IDataObject | undefined,
): Promise<RawAnswer> {
	const timeoutMs = Math.max(1, Math.min(call.requestTimeoutMs, call.deadline.remainingMs()));
	const timer = AbortSignal.timeout(timeoutMs);
	const { signal, dispose } = anySignal([timer, call.deadline.cancelSignal]);
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
		// Every status comes back here: n8n's own repeat after a 401 would leave beside the pace.
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		abortSignal: signal,
	};
	type Response = { body?: unknown; headers?: Record<string, unknown>; statusCode?: number };
	const scoped = Object.create(context, {
		getExecutionCancelSignal: { value: () => signal },
	}) as RequestingFunctions;
	try {
		// The token request inside (preAuthentication) does not hear the signal: the item stops anyway.
		const outcome = (await untilAborted(
			context.helpers.httpRequestWithAuthentication.call(scoped, call.credentialType, options),
			signal,
		).catch(fromRequestError)) as Response | HttpProblem;
		if (!(outcome instanceof HttpProblem)) {
			const status = Number(outcome.statusCode ?? 200);
			const headers = lowerCased(outcome.headers);
			if (status >= 200 && status < 300) {
				return { status, headers, ...(await readBody(outcome.body, MAX_ANSWER_BYTES, signal)) };
			}
			return { status, headers, ...(await errorText(outcome.body, signal)) };
		}
		const { details, kind } = outcome;
		const code = details.networkCode;
		const timedOut = timer.aborted || code === 'ETIMEDOUT' || code === 'ECONNABORTED';
		const words = `no answer within ${seconds(timeoutMs)}`;
		// Anything else (e.g. the credential could not get a token) keeps its own words.
		if (kind !== 'status') {
			throw timedOut ? new HttpProblem('timeout', words, { networkCode: 'ETIMEDOUT' }) : outcome;
		}
		return {
			status: details.status!,
			headers: details.headers ?? {},
			...(await errorText(details.body, signal)),
		};
	} finally {
		dispose();
	}
}

async function errorText(body: unknown, signal: AbortSignal): Promise<BodyText> {
	return await readBody(body, MAX_ERROR_BODY_BYTES, signal).catch(
		(): BodyText => ({ text: '', truncated: false, bytes: 0 }),
	);
}

/** Only within the call's origin, so that the credentials never travel to another host. */
function redirectTarget(call: ApiCall, from: string, raw: RawAnswer, hops: number): string {
	const { status } = raw;
	const location = String(raw.headers.location ?? '').trim();
	if (!location || !URL.canParse(location, from)) {
		const words = `unexpected answer (HTTP ${status} without a usable Location)`;
		throw new HttpProblem('unexpected', words, { status });
	}
	const target = new URL(location, from);
	const shown = `${target.protocol}//${target.host}${target.pathname}`;
	const refused = (words: string) => new HttpProblem('redirect', words, { status, target: shown });
	if (target.origin !== call.origin) {
		throw refused(
			`the server redirected (HTTP ${status}) to another host, ${target.host}; the redirect was not followed, so the credentials stay with ${call.origin}`,
		);
	}
	if (status !== 307 && status !== 308 && call.method !== 'GET') {
		throw refused(
			`the server redirected the ${call.method} (HTTP ${status}) to ${target.pathname}; it was not followed, since HTTP would turn it into a GET`,
		);
	}
	if (hops > MAX_REDIRECTS) throw refused(`the server redirected more than ${MAX_REDIRECTS} times`);
	return target.toString();
}

function seconds(ms: number): string {
	const s = ms / 1000;
	return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
