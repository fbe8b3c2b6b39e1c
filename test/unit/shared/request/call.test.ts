/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { Readable } from 'node:stream';

import { RequestThrottle, spacingFor } from '../../../../nodes/shared/pacing/throttle';
import { Deadline } from '../../../../nodes/shared/pacing/time';
import type { ApiCall, RequestingFunctions } from '../../../../nodes/shared/request/call';
import { callApi } from '../../../../nodes/shared/request/call';
import {
	RETRY_DEFAULTS,
	backoffDelay,
	waitAfterThrottle,
} from '../../../../nodes/shared/request/failure';

/** What a scripted server answers: a status (with a JSON body) or a network error code. */
type Scripted =
	| { status: number; body?: unknown; headers?: Record<string, string>; answerAfterMs?: number }
	| { code: string };

/** A stand-in for n8n's request helper that answers from a script, as n8n would shape it. */
function scriptedContext(script: Scripted[]) {
	const sent: unknown[] = [];
	const sentAt: number[] = [];
	const context = {
		helpers: {
			async httpRequestWithAuthentication(_type: string, options: unknown) {
				sent.push(options);
				sentAt.push(Date.now());
				const next = script.shift() ?? { code: 'ECONNRESET' };
				if ('code' in next)
					throw Object.assign(new Error(`failed ${next.code}`), { code: next.code });
				if (next.answerAfterMs)
					await new Promise((answer) => setTimeout(answer, next.answerAfterMs));
				const headers = { 'content-type': 'application/json', ...(next.headers ?? {}) };
				const body = Readable.from([
					Buffer.from(next.body === undefined ? '' : JSON.stringify(next.body)),
				]);
				if (next.status >= 200 && next.status < 300)
					return { body, headers, statusCode: next.status };
				throw Object.assign(new Error(`failed ${next.status}`), {
					response: { status: next.status, headers, data: body },
				});
			},
		},
	} as unknown as RequestingFunctions;
	return { context, sent, sentAt };
}

function call(overrides: Partial<ApiCall> = {}): ApiCall {
	return {
		credentialType: 'x',
		method: 'POST',
		url: 'https://api.test/things',
		origin: 'https://api.test',
		requestTimeoutMs: 1000,
		deadline: new Deadline(600_000),
		retry: { safeToRepeat: true, baseDelayMs: 1, maxDelayMs: 2 },
		...overrides,
	};
}

beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

/** Runs a call while moving the fake clock, and settles it. */
async function settle<T>(
	promise: Promise<T>,
	stepMs = 1_000,
	steps = 200,
): Promise<{ value?: T; error?: any }> {
	let outcome: { value?: T; error?: any } | undefined;
	promise.then(
		(value) => (outcome = { value }),
		(error) => (outcome = { error }),
	);
	for (let i = 0; i < steps && !outcome; i++) await jest.advanceTimersByTimeAsync(stepMs);
	if (!outcome) throw new Error('the call did not settle');
	return outcome;
}

describe('callApi retries as the call allows', () => {
	test('repeats 5xx and network failures when the request is safe to repeat', async () => {
		const { context, sent } = scriptedContext([
			{ status: 502 },
			{ code: 'ECONNRESET' },
			{ status: 202, body: { ok: 1 } },
		]);
		const { value } = await settle(callApi(context, call()));
		expect(value?.body).toEqual({ ok: 1 });
		expect(sent).toHaveLength(3);
	});

	test('never repeats a 5xx or network failure of a request that is not safe to repeat', async () => {
		const { context, sent } = scriptedContext([{ status: 500 }, { status: 202, body: {} }]);
		const { error } = await settle(callApi(context, call({ retry: { safeToRepeat: false } })));
		expect(error.message).toBe('HTTP 500');
		expect(sent).toHaveLength(1);
	});

	test('always repeats a 429, which was not processed, after its Retry-After', async () => {
		const { context, sent } = scriptedContext([
			{ status: 429, headers: { 'retry-after': '3' } },
			{ status: 202, body: {} },
		]);
		const promise = callApi(context, call({ retry: { safeToRepeat: false } }));
		await jest.advanceTimersByTimeAsync(2_000);
		expect(sent).toHaveLength(1);
		await jest.advanceTimersByTimeAsync(1_500);
		await expect(promise).resolves.toMatchObject({ status: 202 });
		expect(sent).toHaveLength(2);
	});

	test('a Retry-After counts from the send: an answer slow to come back adds no wait', async () => {
		const throttle = new RequestThrottle(600);
		const { context, sentAt } = scriptedContext([
			{ status: 429, headers: { 'retry-after': '3' }, answerAfterMs: 800 },
			{ status: 202, body: {} },
		]);
		const other = scriptedContext([{ status: 202, body: {} }]);
		const { value } = await settle(callApi(context, call({ throttle })), 100, 100);
		expect(value).toMatchObject({ status: 202 });
		// The refused request and the client's other requests wait 3 s from the send, not from the answer.
		expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(3_000);
		expect(sentAt[1] - sentAt[0]).toBeLessThan(3_800);
		await settle(callApi(other.context, call({ throttle })), 100, 100);
		expect(other.sentAt[0] - sentAt[0]).toBeGreaterThanOrEqual(3_000);
	});

	test('429s are repeated for as long as the deadline allows, then it ends with the last 429', async () => {
		const refused = (n: number) =>
			[...Array(n)].map(() => ({ status: 429, headers: { 'retry-after': '1' } }));
		const landing = scriptedContext([...refused(20), { status: 202, body: {} }]);
		const landed = callApi(landing.context, call({ retry: { safeToRepeat: false } }));
		await jest.advanceTimersByTimeAsync(21_000);
		await expect(landed).resolves.toMatchObject({ status: 202 });
		expect(landing.sent).toHaveLength(21);

		// Counted from the first slot, which no throttle gives here: the first send starts it.
		const endless = scriptedContext(refused(100));
		const deadline = new Deadline(30_000, undefined, Date.now, { startsAtFirstSlot: true });
		const { error } = await settle(callApi(endless.context, call({ deadline })), 500, 100);
		expect(error.kind).toBe('deadline');
		expect(error.message).toMatch(/within the 30 s allowed; the last attempt: HTTP 429/);
		expect(endless.sent.length).toBeGreaterThanOrEqual(29);
		expect(endless.sent.length).toBeLessThanOrEqual(31);
	});

	test('a 429 without Retry-After holds the client at most 2 s; the refused request backs off alone', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.99); // backoffs near their caps: 0.4, 0.8, 1.6, 3.2, 6.4 s
		const throttle = new RequestThrottle(600);
		const refusedFive = [...Array(5)].map(() => ({ status: 429 }));
		const { context, sent } = scriptedContext([...refusedFive, { status: 202, body: {} }]);
		const refused = callApi(context, call({ throttle }));
		for (let i = 0; i < 400 && sent.length < 5; i++) await jest.advanceTimersByTimeAsync(100);
		const fifthAt = Date.now();
		const other = scriptedContext([{ status: 202, body: {} }]);
		let otherDoneAt = Number.NaN;
		void callApi(other.context, call({ throttle })).then(() => (otherDoneAt = Date.now()));
		await jest.advanceTimersByTimeAsync(3_500);
		// The hold, then the first slot at the cut pace (sends land early in a slot after a 429).
		expect(otherDoneAt - fifthAt).toBeLessThanOrEqual(2_000 + spacingFor(0.05 * 600) / 2 + 100);
		expect(sent).toHaveLength(5); // its own backoff, near 6.4 s, still runs
		await jest.advanceTimersByTimeAsync(15_000);
		await expect(refused).resolves.toMatchObject({ status: 202 });
		expect(sent).toHaveLength(6);
	});

	test('a 401 is repeated, with a new token, only as often as allowed', async () => {
		const { context, sent } = scriptedContext([
			{ status: 401 },
			{ status: 401 },
			{ status: 401 },
			{ status: 401 },
		]);
		let issued = 0;
		const token = {
			live: async () => ({ token: `t${++issued}`, expiresAt: Date.now() + 60_000 }),
			held: () => undefined,
		};
		const { error } = await settle(
			callApi(context, call({ retry: { safeToRepeat: false, maxUnauthorizedAttempts: 3 }, token })),
		);
		expect(error.status).toBe(401);
		expect(sent).toHaveLength(3);
		expect(issued).toBe(3);
	});

	test('a 401 without a token to renew (Token, Basic Auth) is repeated once, as n8n did', async () => {
		const { context, sent } = scriptedContext([{ status: 401 }, { status: 401 }, { status: 401 }]);
		const { error } = await settle(callApi(context, call()));
		expect(error.status).toBe(401);
		expect(sent).toHaveLength(2);
	});

	test('other 4xx answers are not repeated', async () => {
		const { context, sent } = scriptedContext([{ status: 404, body: { message: 'no' } }]);
		const { error } = await settle(callApi(context, call()));
		expect(error).toMatchObject({ kind: 'status', status: 404 });
		expect(error.details.body).toEqual({ message: 'no' });
		expect(sent).toHaveLength(1);
	});

	test('retries end at the deadline', async () => {
		const { context, sent } = scriptedContext(Array.from({ length: 50 }, () => ({ status: 503 })));
		const deadline = new Deadline(5_000);
		const { error } = await settle(
			callApi(
				context,
				call({
					deadline,
					retry: { safeToRepeat: true, maxAttempts: 50, baseDelayMs: 2_000, maxDelayMs: 2_000 },
				}),
			),
			500,
		);
		expect(error.kind).toBe('deadline');
		expect(error.message).toMatch(/within the 5 s allowed; the last attempt: HTTP 503/);
		expect(sent.length).toBeLessThan(50);
	});

	test('a cancelled call stops at once and sends nothing more', async () => {
		const controller = new AbortController();
		const { context, sent } = scriptedContext([
			{ status: 429, headers: { 'retry-after': '60' } },
			{ status: 202, body: {} },
		]);
		const promise = callApi(context, call({ deadline: new Deadline(600_000, controller.signal) }));
		await jest.advanceTimersByTimeAsync(10);
		controller.abort();
		const { error } = await settle(promise, 10, 5);
		expect(error.kind).toBe('cancelled');
		expect(sent).toHaveLength(1);
	});

	// The credential's token request runs inside n8n's helper and hears neither (issue 52 item 7).
	const waitingForToken = () => {
		const sent: unknown[] = [];
		const context = {
			helpers: {
				httpRequestWithAuthentication: (_type: string, options: unknown) => {
					sent.push(options);
					return new Promise(() => {}); // the token endpoint keeps asking to wait
				},
			},
		} as unknown as RequestingFunctions;
		return { context, sent };
	};

	test('Stop ends a call whose token is still being fetched', async () => {
		const controller = new AbortController();
		const { context, sent } = waitingForToken();
		const promise = callApi(context, call({ deadline: new Deadline(600_000, controller.signal) }));
		await jest.advanceTimersByTimeAsync(10);
		controller.abort();
		const { error } = await settle(promise, 10, 5);
		expect(error.kind).toBe('cancelled');
		expect(sent).toHaveLength(1);
	});

	test('the Timeout ends a request whose token is still being fetched', async () => {
		jest.useRealTimers(); // the Timeout is an AbortSignal.timeout, which fake timers do not move
		const { context, sent } = waitingForToken();
		const once = { safeToRepeat: false, baseDelayMs: 1, maxDelayMs: 2 };
		const error = await callApi(context, call({ requestTimeoutMs: 20, retry: once })).catch(
			(failure: Error) => failure,
		);
		expect((error as Error).message).toMatch(/no answer within/);
		expect(sent).toHaveLength(1);
	});

	test('every request goes without automatic redirects, with a timeout and a body limit in place', async () => {
		const { context, sent } = scriptedContext([{ status: 200, body: {} }]);
		await settle(callApi(context, call()));
		expect(sent[0]).toMatchObject({
			disableFollowRedirect: true,
			encoding: 'stream',
			returnFullResponse: true,
			timeout: 1000,
		});
	});
});

describe('Retry-After', () => {
	test.each([
		['3', { waitMs: 3_000, holdMs: 3_000 }],
		['0', { waitMs: 1_000, holdMs: 1_000 }],
		['-5', { waitMs: 1_000, holdMs: 1_000 }],
		['Thu, 01 Jan 1970 00:00:00 GMT', { waitMs: 1_000, holdMs: 1_000 }],
		['120', { waitMs: 120_000, holdMs: 120_000 }],
	])('%s is obeyed within the documented range, by the whole client', (header, expected) => {
		const now = Date.parse('2026-11-23T00:00:00Z');
		expect(waitAfterThrottle(header, 1, now, now)).toEqual(expected);
	});

	test('counted from the send of the refused request: the round trip is taken off, at most half the wait', () => {
		const sent = Date.parse('2026-11-23T00:00:00Z');
		expect(waitAfterThrottle('3', 1, sent, sent + 300)).toEqual({ waitMs: 2_700, holdMs: 2_700 });
		expect(waitAfterThrottle('0', 1, sent, sent + 300)).toEqual({ waitMs: 700, holdMs: 700 });
		expect(waitAfterThrottle('1', 1, sent, sent + 5_000)).toEqual({ waitMs: 500, holdMs: 500 });
		// Untold, nothing was counted by the platform: the backoff is the client's own.
		jest.spyOn(Math, 'random').mockReturnValue(0.99);
		expect(waitAfterThrottle(undefined, 5, sent, sent + 300)).toEqual({
			waitMs: 6_336,
			holdMs: 2_000,
		});
	});

	test('beyond the range it is refused with the time it asks for', () => {
		const now = Date.parse('2026-11-23T00:00:00Z');
		expect(waitAfterThrottle('86400', 1, now, now)).toEqual({
			tooLongMs: 86_400_000,
			retryAt: '2026-11-24T00:00:00.000Z',
		});
		expect(waitAfterThrottle('99999999999999999999', 1, 0, 0)).toMatchObject({ retryAt: 'never' });
	});

	test('without Retry-After the request backs off from 0.2 s, the whole client at most 2 s', () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.99);
		expect(waitAfterThrottle(undefined, 5)).toEqual({ waitMs: 6_336, holdMs: 2_000 });
		expect(waitAfterThrottle('soon', 1)).toEqual({ waitMs: 396, holdMs: 396 });
		jest.spyOn(Math, 'random').mockReturnValue(0);
		expect(waitAfterThrottle(undefined, 1)).toEqual({ waitMs: 200, holdMs: 200 });
	});

	test('without Retry-After: full-jitter backoff, capped', () => {
		for (let attempt = 0; attempt < 10; attempt++) {
			const delay = backoffDelay(attempt, {
				...RETRY_DEFAULTS,
				baseDelayMs: 100,
				maxDelayMs: 2000,
			});
			expect(delay).toBeGreaterThanOrEqual(0);
			expect(delay).toBeLessThanOrEqual(Math.min(2000, 100 * 2 ** attempt));
		}
	});
});
