/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import nock from 'nock';

import { createCredentialsHelper } from '../../harness/engine';
import {
	BASE_URL,
	CLIENT_SECRET,
	accepted,
	lmsCredentials,
	credentialsWithIssuedToken,
	mockToken,
	credentialsWithToken,
	isolateNetwork,
} from '../helpers/lms';
import { runNode } from '../helpers/workflows';
import { RequestThrottle } from '../../nodes/shared/pacing/throttle';

const upsert = (externalId: string) => ({
	resource: 'course',
	operation: 'upsert',
	externalId,
	name: 'Course',
	url: 'https://learn.test/c',
	options: { waitForCompletion: false },
});

isolateNetwork();

test('fetches a token with the client id and secret as query parameters, and sends it as Bearer', async () => {
	const credentials = lmsCredentials();
	const { clientId } = credentials.learningPlatformOAuth2Api;
	const token = mockToken(clientId, 'first-token');
	const api = nock(BASE_URL, {
		reqheaders: {
			authorization: 'Bearer first-token',
			accept: 'application/json',
			'content-type': 'application/json',
		},
	})
		.post('/api/developer/v2/courses.json')
		.reply(202, accepted('tx-1'));

	const run = await runNode({ parameters: upsert('c-1'), credentials });

	expect(run.error).toBeUndefined();
	expect(token.isDone()).toBe(true);
	expect(api.isDone()).toBe(true);
	expect(run.items[0].json).toMatchObject({
		externalId: 'c-1',
		transactionId: 'tx-1',
		status: 'initiated',
	});
});

test('reuses the saved token across items and across executions', async () => {
	const credentials = lmsCredentials();
	const helper = createCredentialsHelper(credentials);
	const { clientId } = credentials.learningPlatformOAuth2Api;
	const token = mockToken(clientId, 'only-token', 1);
	const api = nock(BASE_URL, { reqheaders: { authorization: 'Bearer only-token' } })
		.post('/api/developer/v2/courses.json')
		.times(5)
		.reply(202, accepted('tx'));

	const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
	const parameters = { ...upsert('x'), externalId: '={{ $json.id }}' };
	const first = await runNode({ parameters, items, credentialsHelper: helper });
	const callsAfterFirst = helper.preAuthenticationCalls.length;
	const second = await runNode({ parameters, items: items.slice(0, 2), credentialsHelper: helper });

	expect(first.error).toBeUndefined();
	expect(second.error).toBeUndefined();
	expect(token.isDone()).toBe(true);
	expect(api.isDone()).toBe(true);
	// Concurrent first requests may each ask, but only one token request reaches the platform
	// (the mock answers once); the second execution finds the saved token and asks for none.
	expect(helper.preAuthenticationCalls.length).toBe(callsAfterFirst);
	expect(helper.store.learningPlatformOAuth2Api.accessToken).toBe('only-token');
});

test('fetches a new token after a 401 and retries the request once', async () => {
	const credentials = credentialsWithIssuedToken('expired-token');
	const { clientId } = credentials.learningPlatformOAuth2Api;
	const expired = nock(BASE_URL, { reqheaders: { authorization: 'Bearer expired-token' } })
		.post('/api/developer/v2/courses.json')
		.reply(401, { error: 'unauthorized' });
	const token = mockToken(clientId, 'fresh-token');
	const retried = nock(BASE_URL, { reqheaders: { authorization: 'Bearer fresh-token' } })
		.post('/api/developer/v2/courses.json')
		.reply(202, accepted('tx-2'));
	const helper = createCredentialsHelper(credentials);

	const run = await runNode({ parameters: upsert('c-2'), credentialsHelper: helper });

	expect(run.error).toBeUndefined();
	expect(expired.isDone() && token.isDone() && retried.isDone()).toBe(true);
	expect(run.items[0].json.transactionId).toBe('tx-2');
	// The next execution in this process sends the new token at once, asking for none.
	const next = nock(BASE_URL, { reqheaders: { authorization: 'Bearer fresh-token' } })
		.post('/api/developer/v2/courses.json')
		.reply(202, accepted('tx-3'));
	const again = await runNode({ parameters: upsert('c-3'), credentialsHelper: helper });
	expect(again.error).toBeUndefined();
	expect(next.isDone()).toBe(true);
});

test('a saved token past the expiry saved with it is renewed before the first request', async () => {
	const credentials = credentialsWithIssuedToken('yesterdays-token', {
		accessTokenExpiresAt: Date.now() - 1_000,
	});
	const { clientId } = credentials.learningPlatformOAuth2Api;
	const token = mockToken(clientId, 'todays-token');
	const write = nock(BASE_URL, { reqheaders: { authorization: 'Bearer todays-token' } })
		.post('/api/developer/v2/courses.json')
		.reply(202, accepted('tx-4'));

	const run = await runNode({ parameters: upsert('c-4'), credentials });

	// nock refuses any other request: the old token was never sent.
	expect(run.error).toBeUndefined();
	expect(token.isDone() && write.isDone()).toBe(true);
});

test('a rejected client secret gives a clear error that never contains the secret', async () => {
	const credentials = lmsCredentials();
	const { clientId } = credentials.learningPlatformOAuth2Api;
	nock(BASE_URL)
		.post('/api/oauth/token')
		.query(true)
		.reply(401, { error: 'invalid_client', message: 'Client authentication failed' });

	const run = await runNode({ parameters: upsert('c-3'), credentials });

	expect(run.error).toBeDefined();
	const everything = JSON.stringify({
		error: run.error,
		message: run.error?.message,
		description: (run.error as { description?: string })?.description,
		data: run.run.data,
	});
	expect(run.error?.message).toMatch(/access token/i);
	expect(run.error?.message).toMatch(/401/);
	expect(everything).not.toContain(CLIENT_SECRET);
	expect(everything).not.toContain(encodeURIComponent(CLIENT_SECRET));
	expect(nock.isDone()).toBe(true);
});

test('a network failure at the token endpoint does not leak the secret from the URL', async () => {
	const credentials = lmsCredentials();
	nock(BASE_URL)
		.post('/api/oauth/token')
		.query(true)
		.replyWithError(
			Object.assign(
				new Error(
					`connect ECONNREFUSED ${BASE_URL}/api/oauth/token?client_secret=${encodeURIComponent(CLIENT_SECRET)}`,
				),
				{
					code: 'ECONNREFUSED',
				},
			),
		);

	const run = await runNode({ parameters: upsert('c-4'), credentials, continueOnFail: true });

	const everything = JSON.stringify(run.run.data);
	expect(run.items[0].json.error).toMatch(/access token/i);
	expect(everything).not.toContain(CLIENT_SECRET);
	expect(everything).not.toContain(encodeURIComponent(CLIENT_SECRET));
});

/** An upsert whose token requests are refused `times` times with 429: the holds the client took. */
async function upsertAfterRefusedTokens(
	times: number,
	headers: Record<string, string>,
	tag: string,
) {
	const credentials = lmsCredentials();
	const { clientId } = credentials.learningPlatformOAuth2Api;
	const refused = nock(BASE_URL)
		.post('/api/oauth/token')
		.query(true)
		.times(times)
		.reply(429, { message: 'Too many requests' }, headers);
	const token = mockToken(clientId, `after-${tag}`);
	const api = nock(BASE_URL, { reqheaders: { authorization: `Bearer after-${tag}` } })
		.post('/api/developer/v2/courses.json')
		.reply(202, accepted(`tx-${tag}`));
	const heldBack = jest.spyOn(RequestThrottle.prototype, 'throttled');
	const started = Date.now();
	try {
		const run = await runNode({ parameters: upsert(`c-${tag}`), credentials });
		return {
			run,
			elapsed: Date.now() - started,
			allDone: refused.isDone() && token.isDone() && api.isDone(),
			holds: [...heldBack.mock.calls],
		};
	} finally {
		heldBack.mockRestore();
	}
}

test('a token request refused with 429 (another process spending the budget) is tried again after its Retry-After', async () => {
	const { run, elapsed, allDone, holds } = await upsertAfterRefusedTokens(
		1,
		{ 'Retry-After': '1' },
		'429',
	);

	expect(run.error).toBeUndefined();
	expect(allDone).toBe(true);
	expect(elapsed).toBeGreaterThanOrEqual(1_000);
	// The client's throttle was held back for the Retry-After, so other requests wait too: counted
	// from the token request's send, the time its answer took back is taken off.
	expect(holds).toHaveLength(1);
	expect(holds[0][0]).toBeGreaterThan(500);
	expect(holds[0][0]).toBeLessThanOrEqual(1_000);
});

test('a token request refused with 429 and no Retry-After holds the client 2 s at most, and itself waits out its backoff', async () => {
	// Full jitter near its ceiling: 0.4 s, 0.8 s, 1.6 s, then 3.2 s, longer than the client's hold.
	const random = jest.spyOn(Math, 'random').mockReturnValue(0.99);
	const { run, elapsed, allDone, holds } = await upsertAfterRefusedTokens(4, {}, 'backoff').finally(
		() => random.mockRestore(),
	);

	expect(run.error).toBeUndefined();
	expect(allDone).toBe(true);
	expect(elapsed).toBeGreaterThanOrEqual(396 + 792 + 1_584 + 3_168);
	expect(holds).toEqual([[396], [792], [1_584], [2_000]]);
});
