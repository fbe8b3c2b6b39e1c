import { ManualClock } from '../../sandbox/clock';
import type { Sandbox } from '../../sandbox/server';
import {
	COURSES,
	DOCUMENTED_HEADERS,
	get,
	issueToken,
	requestToken,
	startTestSandbox,
} from './helpers';

describe('token endpoint and Bearer checks', () => {
	const clock = new ManualClock();
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startTestSandbox(
			{
				tokenLifetimeSec: 1,
				clientId: 'client-a',
				clientSecret: 'secret-a',
			},
			clock,
		);
	});
	afterAll(() => sandbox.close());

	it('issues a bearer token for the configured client credentials', async () => {
		const answer = await requestToken(sandbox);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			access_token: expect.any(String),
			token_type: 'bearer',
			expires_in: 1,
		});
		expect(answer.body.access_token.length).toBeGreaterThanOrEqual(20);
		const second = await requestToken(sandbox);
		expect(second.body.access_token).not.toBe(answer.body.access_token);
		expect(sandbox.state().tokensIssued).toBe(2);
	});

	it.each([
		['a wrong secret', { client_secret: 'nope' }],
		['a wrong client id', { client_id: 'someone-else' }],
		['a wrong grant type', { grant_type: 'password' }],
	])('refuses %s with 401 invalid_client', async (_case, params) => {
		const answer = await requestToken(sandbox, params);
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ error: 'invalid_client', message: expect.any(String) });
	});

	it('refuses credentials sent in a body instead of the query', async () => {
		const response = await fetch(`${sandbox.url}/api/oauth/token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				client_id: 'client-a',
				client_secret: 'secret-a',
				grant_type: 'client_credentials',
			}),
		});
		expect(response.status).toBe(401);
	});

	it('needs none of the API headers on the token endpoint', async () => {
		const query = new URLSearchParams({
			client_id: 'client-a',
			client_secret: 'secret-a',
			grant_type: 'client_credentials',
		});
		const response = await fetch(`${sandbox.url}/api/oauth/token?${query}`, { method: 'POST' });
		expect(response.status).toBe(200);
	});

	it('ignores token parameters it does not know, as OAuth 2.0 servers must', async () => {
		const answer = await requestToken(sandbox, { scope: 'courses' });
		expect(answer.status).toBe(200);
	});

	it.each([
		['no Authorization header', undefined],
		['an unknown token', 'not-a-token-we-issued'],
	])('answers 401 unauthorized for %s', async (_case, token) => {
		const answer = await get(sandbox, COURSES, token);
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
	});

	it.each([
		['a lower-case scheme', (token: string) => `bearer ${token}`],
		['two spaces', (token: string) => `Bearer  ${token}`],
		['no scheme', (token: string) => token],
		['another scheme', (token: string) => `Token ${token}`],
	])('accepts only "Bearer <token>": refuses %s with 401', async (_case, authorization) => {
		const token = await issueToken(sandbox);
		const response = await fetch(`${sandbox.url}${COURSES}`, {
			headers: { ...DOCUMENTED_HEADERS, Authorization: authorization(token) },
		});
		expect(response.status).toBe(401);
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
	});

	it('rejects a token once its lifetime has passed', async () => {
		const token = await issueToken(sandbox);
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
		clock.advance(999);
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
		clock.advance(1);
		const expired = await get(sandbox, COURSES, token);
		expect(expired.status).toBe(401);
		expect(expired.body.error).toBe('unauthorized');
		const fresh = await issueToken(sandbox);
		expect((await get(sandbox, COURSES, fresh)).status).toBe(200);
	});
});
