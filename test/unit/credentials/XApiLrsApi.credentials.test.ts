import nock from 'nock';

import { XApiLrsApi } from '../../../credentials/XApiLrsApi.credentials';
import { runCredentialTest } from '../XApi/credentialTest';
import {
	ENDPOINT,
	LRS_ORIGIN,
	STATEMENTS_PATH,
	TOKEN,
	resetNock,
	runXApi,
	sendJson,
	statement,
	storedIdsOf,
	tokenCredentials,
} from '../XApi/fixtures';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const getOne = {
	resource: 'statement',
	operation: 'get',
	statementId: '6690e6c9-3ef0-4ed3-8b37-7f3964730bee',
};

test('token authentication sends the token verbatim, with the xAPI version and JSON headers', async () => {
	const lrs = nock(LRS_ORIGIN, {
		reqheaders: {
			authorization: TOKEN,
			'x-experience-api-version': '1.0.3',
			'content-type': 'application/json',
			charset: 'utf-8',
		},
	})
		.post(STATEMENTS_PATH)
		.reply(200, (_uri, body) => storedIdsOf(body));

	const run = await sendJson([{ statement: statement() }]);

	expect(run.error).toBeUndefined();
	expect(lrs.isDone()).toBe(true);
});

test('basic authentication sends the username and password as HTTP Basic (UTF-8)', async () => {
	const expected = `Basic ${Buffer.from('clé:pa:ss wörd', 'utf8').toString('base64')}`;
	const lrs = nock(LRS_ORIGIN, {
		reqheaders: { authorization: expected, 'x-experience-api-version': '1.0.3' },
	})
		.get(STATEMENTS_PATH)
		.query({ statementId: getOne.statementId })
		.reply(200, { id: getOne.statementId, ...statement() });
	const credentials = tokenCredentials({
		authentication: 'basic',
		username: 'clé',
		password: 'pa:ss wörd',
		token: '',
	});

	const run = await runXApi(getOne, [{}], { credentials });

	expect(run.error).toBeUndefined();
	expect(lrs.isDone()).toBe(true);
});

test('a trailing slash or a pasted /statements on the endpoint is ignored', async () => {
	const lrs = nock(LRS_ORIGIN)
		.get(STATEMENTS_PATH)
		.query(true)
		.times(2)
		.reply(200, { id: getOne.statementId });

	const slash = await runXApi(getOne, [{}], {
		credentials: tokenCredentials({ endpoint: `${ENDPOINT}/` }),
	});
	const pasted = await runXApi(getOne, [{}], {
		credentials: tokenCredentials({ endpoint: `${ENDPOINT}/statements` }),
	});

	expect(slash.error).toBeUndefined();
	expect(pasted.error).toBeUndefined();
	expect(lrs.isDone()).toBe(true);
});

test('the token never shows in an error', async () => {
	// n8n itself repeats a request once after a 401, with the credential re-applied.
	nock(LRS_ORIGIN)
		.get(STATEMENTS_PATH)
		.query(true)
		.times(2)
		.reply(401, { message: `bad credentials ${TOKEN}` });

	const run = await runXApi(getOne);

	expect(run.error?.message).toMatch(/HTTP 401/);
	expect(JSON.stringify(run.error)).not.toContain(TOKEN);
	expect(JSON.stringify(run.error)).not.toContain(TOKEN.slice('Basic '.length));
});

describe('the credential type', () => {
	const credential = new XApiLrsApi();

	test('keeps the public parameter names', () => {
		expect(credential.name).toBe('xApiLrsApi');
		expect(credential.properties.filter((p) => p.type !== 'notice').map((p) => p.name)).toEqual([
			'endpoint',
			'authentication',
			'clientId',
			'clientSecret',
			'scope',
			'tokenUrl',
			'token',
			'username',
			'password',
			// One per authentication: 60 by default for OAuth2, no limit for Token and Basic.
			'requestsPerMinute',
			'requestsPerMinute',
			'requestTimeout',
			'accessToken',
			'accessTokenFor',
			'accessTokenExpiresAt',
		]);
		expect(credential.properties.find((p) => p.name === 'authentication')?.default).toBe('token');
		for (const secret of ['token', 'password', 'clientSecret', 'accessToken']) {
			expect(credential.properties.find((p) => p.name === secret)?.typeOptions?.password).toBe(
				true,
			);
		}
	});

	test('authenticate adds the Authorization and version headers and keeps the others', async () => {
		const options = await credential.authenticate(
			{ endpoint: ENDPOINT, authentication: 'token', token: '  abc  ' },
			{ url: `${ENDPOINT}/statements`, headers: { Accept: 'application/json' } },
		);
		// Spelled `authorization`: n8n's redirect hook copies only `Authorization` onto redirects.
		expect(options.headers).toEqual({
			Accept: 'application/json',
			authorization: 'abc',
			'X-Experience-API-Version': '1.0.3',
		});
		expect(options.sendCredentialsOnCrossOriginRedirect).toBe(false);
	});

	test('authenticate sends the Authorization to the record store only, never to another host', async () => {
		const credentials = {
			endpoint: ENDPOINT,
			authentication: 'basic',
			username: 'key',
			password: 'secret',
		};
		for (const url of ['https://elsewhere.test/statements', 'http://other.test:8080/x']) {
			const options = await credential.authenticate(credentials, {
				url,
				headers: { Authorization: 'Basic stale' },
			});
			expect(options.headers).toEqual({ 'X-Experience-API-Version': '1.0.3' });
		}
		const relative = await credential.authenticate(credentials, {
			baseURL: ENDPOINT,
			url: '/statements',
		});
		expect(relative.headers?.authorization).toMatch(/^Basic /);
	});

	test('the connection test asks the LRS for one statement (Token, Basic) or for a token (OAuth2)', () => {
		const request = JSON.stringify(credential.test.request);
		expect(request).toContain('/statements');
		expect(request).toContain('limit: 1');
		expect(request).toContain('/oauth2/token');
		expect(request).toContain('grant_type=client_credentials');
		expect(credential.test.request.baseURL).toContain('$credentials.endpoint');
	});
});

describe('the credential Test, as n8n runs it', () => {
	const STATEMENT_RESULT = { statements: [], more: '' };

	/** The test request as the LRS receives it; answers with `status`. */
	function lrsAnswering(status: number, body: unknown = { message: 'no' }, times = 1) {
		const seen: Array<{ path: string; headers: Record<string, unknown> }> = [];
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query({ limit: '1' })
			.times(times)
			.reply(function reply() {
				seen.push({ path: this.req.path, headers: this.req.headers });
				return [status, body];
			});
		return seen;
	}

	test('a token that may read passes', async () => {
		const seen = lrsAnswering(200, STATEMENT_RESULT);

		const result = await runCredentialTest('xApiLrsApi', tokenCredentials().xApiLrsApi);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(seen).toHaveLength(1);
		expect(seen[0].headers).toMatchObject({
			authorization: TOKEN,
			'x-experience-api-version': '1.0.3',
			'content-type': 'application/json',
			charset: 'utf-8',
		});
	});

	test('a write-only token (authenticated, not allowed to read: 403) passes', async () => {
		lrsAnswering(403, { message: 'Forbidden: this client may not read statements' });

		const result = await runCredentialTest('xApiLrsApi', tokenCredentials().xApiLrsApi);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	test('refused credentials (401) fail, saying what to check', async () => {
		// n8n asks once more after a 401, with the credential applied again.
		const seen = lrsAnswering(401, { message: 'Unauthorized' }, 2);

		const result = await runCredentialTest(
			'xApiLrsApi',
			tokenCredentials({ authentication: 'basic', username: 'key', password: 'wrong' }).xApiLrsApi,
		);

		expect(result).toEqual({
			status: 'Error',
			message: 'The record store refused the credentials: check the token / username and password',
		});
		expect(seen).toHaveLength(2);
	});

	test('an endpoint without a statements resource (404) fails, saying what the endpoint looks like', async () => {
		lrsAnswering(404, '<html>Not Found</html>');

		const result = await runCredentialTest('xApiLrsApi', tokenCredentials().xApiLrsApi);

		expect(result).toEqual({
			status: 'Error',
			message:
				'No xAPI statements resource at this endpoint: the endpoint usually ends with /xAPI, e.g. https://lrs.example.com/data/xAPI',
		});
	});

	test.each([400, 500, 503])('any other failure status (%i) fails', async (status) => {
		lrsAnswering(status);

		const result = await runCredentialTest('xApiLrsApi', tokenCredentials().xApiLrsApi);

		expect(result.status).toBe('Error');
	});

	test('asks where the nodes would: a trailing slash or a pasted /statements is dropped', async () => {
		const seen = lrsAnswering(200, STATEMENT_RESULT);

		const result = await runCredentialTest(
			'xApiLrsApi',
			tokenCredentials({ endpoint: ` ${ENDPOINT}/statements/ ` }).xApiLrsApi,
		);

		expect(result.status).toBe('OK');
		expect(seen[0].path).toBe(`${STATEMENTS_PATH}?limit=1`);
	});
});
