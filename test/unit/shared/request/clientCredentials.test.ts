/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Tokens and the pace, on a fake clock: the real credential (preAuthentication, authenticate), the
 * real request path (callApi, liveToken, the token request) and the real throttle, against a
 * platform that answers after 400 ms, knows only the tokens it issued, and counts every request.
 * The stand-in for n8n's helper does what n8n's does: preAuthentication when the saved token is
 * empty (saving what it returns), then authenticate, then the request (ignoreHttpStatusErrors
 * honoured, as n8n's HTTP layer does).
 */
import { Readable } from 'node:stream';

import { LearningPlatformOAuth2Api } from '../../../../credentials/LearningPlatformOAuth2Api.credentials';
import {
	lmsClientKey,
	lmsTokenSource,
	tokenFingerprint,
} from '../../../../nodes/LearningPlatform/transport/credential';
import { clientThrottle, spacingFor } from '../../../../nodes/shared/pacing/throttle';
import { Deadline } from '../../../../nodes/shared/pacing/time';
import { callApi, type RequestingFunctions } from '../../../../nodes/shared/request/call';
import { tokenGate } from '../../../../nodes/shared/request/clientCredentials';

const LATENCY_MS = 400;
const RATE = 300;
const credentialType = new LearningPlatformOAuth2Api();

interface Sent {
	at: number;
	answeredAt: number;
	path: string;
	authorization?: string;
	status: number;
}

let clients = 0;

/** A platform at 300 a minute on the fake clock; `refuse429At` answers a 429 to the nth API request. */
function platform({
	refuse429At,
	tokenLatencyMs = LATENCY_MS,
}: { refuse429At?: number; tokenLatencyMs?: number } = {}) {
	const baseUrl = `https://lms-${++clients}.test`;
	const issued = new Set<string>();
	const sent: Sent[] = [];
	let apiRequests = 0;
	const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
		statusCode: status,
		headers: { 'content-type': 'application/json', ...headers },
		body: Readable.from([Buffer.from(JSON.stringify(body))]),
	});
	const respond = async (
		path: string,
		authorization: string | undefined,
		reply: () => any,
		latencyMs = LATENCY_MS,
	) => {
		const entry: Sent = { at: Date.now(), answeredAt: 0, path, authorization, status: 0 };
		sent.push(entry);
		await new Promise((done) => setTimeout(done, latencyMs));
		const outcome = reply();
		entry.answeredAt = Date.now();
		entry.status = outcome.statusCode;
		return outcome;
	};
	const store: Record<string, unknown> = {
		baseUrl,
		clientId: `client-${clients}`,
		clientSecret: 'the-secret',
		requestsPerMinute: RATE,
		accessToken: '',
		accessTokenFor: '',
		accessTokenExpiresAt: '',
	};
	const helpers = {
		async httpRequest(options: any) {
			return await respond(
				'/api/oauth/token',
				undefined,
				() => {
					const token = `token-${issued.size + 1}`;
					issued.add(token);
					return answer(200, { access_token: token, token_type: 'bearer', expires_in: 3600 });
				},
				tokenLatencyMs,
			);
		},
		async httpRequestWithAuthentication(_type: string, options: any) {
			const credentials = { ...store };
			if (credentials.accessToken === '') {
				const saved = await credentialType.preAuthentication.call(
					{ helpers } as never,
					credentials as never,
				);
				Object.assign(store, saved);
				Object.assign(credentials, saved);
			}
			const authenticated = await credentialType.authenticate(credentials as never, options);
			const authorization = authenticated.headers?.authorization as string | undefined;
			return await respond(new URL(options.url).pathname, authorization, () => {
				const token = authorization?.replace(/^Bearer /, '');
				if (!token || !issued.has(token)) return answer(401, { error: 'unauthorized' });
				if (++apiRequests === refuse429At)
					return answer(429, { message: 'Too many requests' }, { 'retry-after': '1' });
				return answer(202, { data: { id: `tx-${apiRequests}`, status: 'initiated' } });
			});
		},
	};
	const context = { helpers } as unknown as RequestingFunctions;
	const { throttle } = clientThrottle(lmsClientKey(store), 'credential', RATE);
	/** What the node's transport asks: the LMS call, its token had before its turn. */
	const write = (index: number) =>
		callApi(context, {
			credentialType: 'learningPlatformOAuth2Api',
			method: 'POST',
			url: `${baseUrl}/api/developer/v2/courses.json`,
			body: { external_id: `c-${index}` },
			origin: baseUrl,
			requestTimeoutMs: 30_000,
			deadline: new Deadline(600_000),
			retry: { safeToRepeat: true },
			throttle,
			token: tokenGate(context, lmsTokenSource(store)),
		});
	/** What n8n saved earlier (another process issued it). */
	const saveToken = (token: string, expiresAt: number) =>
		Object.assign(store, {
			accessToken: token,
			accessTokenFor: tokenFingerprint(store),
			accessTokenExpiresAt: expiresAt,
		});
	/** A token the platform no longer knows, as after its restart or a day later. */
	const saveForgottenToken = (expiresAt: number) => saveToken('forgotten-token', expiresAt);
	const issue = () => (issued.add('issued-earlier'), 'issued-earlier');
	return { sent, store, write, saveToken, saveForgottenToken, issue };
}

/** The run as the node's pool runs it: `inFlight` writes at a time, `count` in all. */
async function runWrites(write: (i: number) => Promise<unknown>, count: number, inFlight = 15) {
	let next = 0;
	let failed = 0;
	let finished = false;
	const worker = async () => {
		while (next < count) await write(next++).catch(() => failed++);
	};
	const all = Promise.all(Array.from({ length: inFlight }, worker)).then(() => (finished = true));
	for (let i = 0; i < 2_000 && !finished; i++) await jest.advanceTimersByTimeAsync(100);
	await all;
	return { failed };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());

test('a token past the expiry saved with it is renewed before the first write', async () => {
	const lms = platform();
	lms.saveForgottenToken(Date.now() - 1_000);

	const { failed } = await runWrites(lms.write, 20);

	expect(failed).toBe(0);
	expect(lms.sent[0].path).toBe('/api/oauth/token');
	expect(lms.sent.filter((r) => r.path === '/api/oauth/token')).toHaveLength(1);
	expect(lms.sent.some((r) => r.authorization === 'Bearer forgotten-token')).toBe(false);
	expect(lms.sent.filter((r) => r.status === 401)).toHaveLength(0);
});

test('a saved token still in date is used, with no token request (a new process)', async () => {
	const lms = platform();
	lms.saveToken(lms.issue(), Date.now() + 3_000_000);

	const { failed } = await runWrites(lms.write, 10);

	expect(failed).toBe(0);
	expect(lms.sent.filter((r) => r.path === '/api/oauth/token')).toHaveLength(0);
	expect(
		lms.sent.every((r) => r.authorization === 'Bearer issued-earlier' && r.status === 202),
	).toBe(true);
});

test('a stale token: no request leaves with it after its first 401, and only those in flight are refused', async () => {
	const lms = platform();
	lms.saveForgottenToken(Date.now() + 3_000_000);

	const { failed } = await runWrites(lms.write, 40);

	expect(failed).toBe(0);
	const stale = lms.sent.filter((r) => r.authorization === 'Bearer forgotten-token');
	const firstRefusal = Math.min(...stale.map((r) => r.answeredAt));
	expect(stale.length).toBeGreaterThan(0);
	expect(stale.every((r) => r.status === 401)).toBe(true);
	// Those sent before the first 401 came back, and none after.
	expect(stale.every((r) => r.at < firstRefusal)).toBe(true);
	expect(lms.sent.filter((r) => r.path === '/api/oauth/token')).toHaveLength(1);
	expect(lms.sent.filter((r) => r.status === 202)).toHaveLength(40);
});

test.each([405, 550])(
	'a stale token: the first write with the new token leaves when the token comes (token answered in %i ms)',
	async (tokenLatencyMs) => {
		const lms = platform({ tokenLatencyMs });
		lms.saveForgottenToken(Date.now() + 3_000_000);

		await runWrites(lms.write, 20);

		// The writes refused with the dead token hold no slot meanwhile: no slot is left unused.
		const token = lms.sent.find((r) => r.path === '/api/oauth/token')!;
		const renewed = lms.sent.filter((r) => r.authorization === 'Bearer token-1');
		expect(renewed).toHaveLength(20);
		expect(renewed[0].at - token.answeredAt).toBeLessThan(20);
	},
);

test('retried writes and the token request take their turn in the pace', async () => {
	const lms = platform();
	lms.saveForgottenToken(Date.now() + 3_000_000);

	await runWrites(lms.write, 40);

	// Every request the platform counts — the 401'd, the token request, their repeats — is paced.
	const spacing = spacingFor(RATE);
	const sends = lms.sent.map((r) => r.at).sort((a, b) => a - b);
	expect(sends.length).toBe(40 + 1 + lms.sent.filter((r) => r.status === 401).length);
	expect(Math.min(...gaps(sends))).toBeGreaterThanOrEqual(spacing * 0.97);
});

test('after a 429 the package goes on at the pace it had', async () => {
	// 40 s into the run, the platform's minute full for a reason of its own.
	const lms = platform({ refuse429At: 200 });
	const { failed } = await runWrites(lms.write, 300);
	expect(failed).toBe(0);

	const spacing = spacingFor(RATE);
	const refused = lms.sent.find((r) => r.status === 429)!;
	const writes = lms.sent.filter((r) => r.path !== '/api/oauth/token').map((r) => r.at);
	const before = writes.filter((t) => t < refused.at).slice(-20);
	const after = writes.filter((t) => t > refused.answeredAt).slice(0, 50);
	// Retry-After 1, counted from the send: back by then, and as many a second as before.
	expect(after[0] - refused.at).toBeLessThanOrEqual(1_000 + spacing);
	expect(after[0] - refused.at).toBeGreaterThanOrEqual(1_000);
	const rate = (times: number[]) => (times.length - 1) / (times.at(-1)! - times[0]);
	expect(rate(after)).toBeGreaterThanOrEqual(rate(before) * 0.98);
	expect(Math.abs(rate(before) * spacing - 1)).toBeLessThan(0.03);
});
