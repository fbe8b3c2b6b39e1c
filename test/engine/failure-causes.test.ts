/**
 * The cause each failure declares (n8n 2.x reads `failure` along an error's cause chain: its
 * poll back-off waits the time a timed cause gives, and backs off the most on an actionable
 * one), for the LMS node, the xAPI node and the xAPI Trigger, through n8n's execution engine.
 */
import nock from 'nock';

import { xApiTriggerPoller } from '../../harness/poll';
import {
	BASE_URL,
	CLIENT_SECRET,
	credentialsWithIssuedToken,
	credentialsWithToken,
	isolateNetwork,
	lmsCredentials,
	mockToken,
} from '../helpers/lms';
import { runNode, sendJsonParameters, XAPI_NODE } from '../helpers/workflows';

jest.setTimeout(30_000);
isolateNetwork();

const COURSES = '/api/developer/v2/courses.json';
const LRS = 'https://lrs.test';
const STATEMENTS = '/xAPI/statements';

/** Every `failure` along an error's cause chain, as n8n's poll back-off reads it. */
function failureOf(error: unknown): unknown {
	let current = error as { failure?: unknown; cause?: unknown } | undefined;
	for (let depth = 0; current && depth < 10; depth++) {
		if (current.failure) return current.failure;
		current = current.cause as typeof current;
	}
	return undefined;
}

const upsert = {
	resource: 'course',
	operation: 'upsert',
	externalId: 'c-1',
	name: 'Course 1',
	url: 'https://learn.test/c',
	options: { waitForCompletion: false },
};
const getMany = { resource: 'course', operation: 'getMany', returnAll: true };

describe('the LMS node', () => {
	test('a 429 whose Retry-After is longer than the node waits: rate-limited, with the wait asked for', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL).post(COURSES).reply(429, { message: 'Slow down' }, { 'Retry-After': '86400' });
		const before = Date.now();

		const run = await runNode({ parameters: upsert, credentials });

		const failure = failureOf(run.error) as Record<string, number>;
		expect(failure).toMatchObject({ cause: 'rate-limited', retryAfterMs: expect.any(Number) });
		expect(failure.retryAfterMs).toBeGreaterThan(86_390_000);
		expect(failure.resetsAtEpochMs).toBeGreaterThanOrEqual(before + 86_400_000);
		expect(failure.resetsAtEpochMs).toBeLessThanOrEqual(Date.now() + 86_400_000);
		expect(nock.isDone()).toBe(true);
	});

	test('a platform answering 503 on every try: temporarily-unavailable once the retries are spent', async () => {
		const credentials = credentialsWithToken();
		const answered = nock(BASE_URL).post(COURSES).times(5).reply(503, 'Service Unavailable');

		const run = await runNode({ parameters: upsert, credentials });

		expect(answered.isDone()).toBe(true);
		expect(run.error?.message).toMatch(/503/);
		expect(failureOf(run.error)).toEqual({ cause: 'temporarily-unavailable' });
	});

	test('a token endpoint refusing the client credentials: credential-invalid, secret never shown', async () => {
		const credentials = lmsCredentials();
		nock(BASE_URL)
			.post('/api/oauth/token')
			.query(true)
			.reply(401, { error: 'invalid_client', message: 'Client authentication failed' });

		const run = await runNode({ parameters: upsert, credentials });

		expect(run.error?.message).toMatch(/access token/i);
		expect(failureOf(run.error)).toEqual({ cause: 'credential-invalid' });
		expect(JSON.stringify(failureOf(run.error))).not.toContain(CLIENT_SECRET);
		expect(nock.isDone()).toBe(true);
	});

	test('a service refusing the credential after a fresh token: credential-invalid', async () => {
		const credentials = credentialsWithIssuedToken('old-token');
		const { clientId } = credentials.learningPlatformOAuth2Api;
		mockToken(clientId, 'new-token', 10);
		const refused = nock(BASE_URL)
			.get(COURSES)
			.query(true)
			.times(10)
			.reply(401, { message: 'Unauthorized' });

		const run = await runNode({ parameters: getMany, credentials });

		expect(run.error?.message).toMatch(/401/);
		expect(failureOf(run.error)).toEqual({ cause: 'credential-invalid' });
		expect(refused.pendingMocks().length).toBeLessThan(10);
		nock.cleanAll();
	});

	test('a base URL whose API answers 404: configuration-invalid', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL).get(COURSES).query(true).reply(404, { message: 'Not Found' });

		const run = await runNode({ parameters: getMany, credentials });

		expect(failureOf(run.error)).toEqual({ cause: 'configuration-invalid' });
	});

	test('a transaction that is not there (404 for its id) is the item’s, not the configuration’s', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL)
			.get('/api/developer/v2/request_data/tx-missing')
			.reply(404, { message: 'Not Found' });

		const run = await runNode({
			parameters: { resource: 'transaction', operation: 'get', transactionId: 'tx-missing' },
			credentials,
		});

		expect(run.error?.message).toMatch(/404/);
		expect(failureOf(run.error)).toBeUndefined();
	});

	test('an input error declares no cause, and nothing is sent', async () => {
		const run = await runNode({
			parameters: { ...upsert, url: 'not a url' },
			credentials: lmsCredentials(),
		});

		expect(run.error?.message).toMatch(/item 0/i);
		expect(failureOf(run.error)).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
	});
});

const tokenCredential = () => ({
	xApiLrsApi: { endpoint: `${LRS}/xAPI`, authentication: 'token', token: 'Basic lrs-token-1' },
});

const completion = {
	actor: { name: 'Ada', mbox: 'mailto:ada@example.com' },
	verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
	object: { objectType: 'Activity', id: 'https://learn.test/cards/1' },
};

describe('the xAPI node', () => {
	test('a record store refusing the credential: credential-invalid', async () => {
		// n8n asks the credential again after a 401 and repeats the request once.
		nock(LRS).get(STATEMENTS).query(true).times(2).reply(401, { message: 'Unauthorized' });

		const run = await runNode({
			type: XAPI_NODE,
			parameters: { resource: 'statement', operation: 'getMany', limit: 5 },
			credentials: tokenCredential(),
		});

		expect(run.error?.message).toMatch(/401/);
		expect(failureOf(run.error)).toEqual({ cause: 'credential-invalid' });
		expect(JSON.stringify(run.run.data)).not.toContain('lrs-token-1');
	});

	test('a token URL refusing the client credentials: credential-invalid', async () => {
		nock(LRS).post('/oauth/token').reply(401, { error: 'invalid_client' });

		const run = await runNode({
			type: XAPI_NODE,
			parameters: sendJsonParameters(),
			items: [{ statement: completion }],
			credentials: {
				xApiLrsApi: {
					endpoint: `${LRS}/xAPI`,
					authentication: 'oauth2',
					clientId: 'app-1',
					clientSecret: 'app-secret-1',
					scope: 'xapi:write',
					tokenUrl: `${LRS}/oauth/token`,
					accessToken: '',
				},
			},
		});

		expect(run.error?.message).toMatch(/refused the client credentials/);
		expect(failureOf(run.error)).toEqual({ cause: 'credential-invalid' });
		expect(JSON.stringify(run.run.data)).not.toContain('app-secret-1');
	});
});

describe('the xAPI Trigger', () => {
	const poller = () => xApiTriggerPoller({ filters: {}, options: {} }, tokenCredential() as never);

	test('a 429 asking for an hour: the poll fails rate-limited, with that wait', async () => {
		nock(LRS).get(STATEMENTS).query(true).reply(429, {}, { 'Retry-After': '3600' });

		const tick = await poller().tick();

		expect(failureOf(tick.error)).toMatchObject({
			cause: 'rate-limited',
			retryAfterMs: expect.any(Number),
		});
		expect((failureOf(tick.error) as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(
			3_590_000,
		);
	});

	test('a record store down on every try: temporarily-unavailable', async () => {
		nock(LRS).get(STATEMENTS).query(true).times(5).reply(502, 'Bad Gateway');

		const tick = await poller().tick();

		expect(failureOf(tick.error)).toEqual({ cause: 'temporarily-unavailable' });
		expect(nock.isDone()).toBe(true);
	});

	test('an endpoint with no statements resource (404): configuration-invalid', async () => {
		nock(LRS).get(STATEMENTS).query(true).reply(404, 'Not Found');

		const tick = await poller().tick();

		expect(failureOf(tick.error)).toEqual({ cause: 'configuration-invalid' });
	});
});
