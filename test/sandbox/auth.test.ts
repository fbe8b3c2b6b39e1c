import type { Sandbox } from '../../sandbox/server';
import { COURSES, get, issueToken, requestToken, sleep, startTestSandbox } from './helpers';

describe('token endpoint and Bearer checks', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startTestSandbox({
			tokenLifetimeSec: 1,
			clientId: 'client-a',
			clientSecret: 'secret-a',
		});
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

	it.each([
		['no Authorization header', undefined],
		['an unknown token', 'not-a-token-we-issued'],
	])('answers 401 unauthorized for %s', async (_case, token) => {
		const answer = await get(sandbox, COURSES, token);
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
	});

	it('rejects a token once its lifetime has passed', async () => {
		const token = await issueToken(sandbox);
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
		await sleep(1100);
		const expired = await get(sandbox, COURSES, token);
		expect(expired.status).toBe(401);
		expect(expired.body.error).toBe('unauthorized');
		const fresh = await issueToken(sandbox);
		expect((await get(sandbox, COURSES, fresh)).status).toBe(200);
	});
});
