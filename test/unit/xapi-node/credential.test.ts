import nock from 'nock';

import { XApiLrsApi } from '../../../credentials/XApiLrsApi.credentials';
import {
	ENDPOINT,
	LRS_ORIGIN,
	STATEMENTS_PATH,
	TOKEN,
	resetNock,
	runXApi,
	sendJson,
	statement,
	tokenCredentials,
} from './helpers';

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
		},
	})
		.post(STATEMENTS_PATH)
		.reply(200, (_uri, body) => (body as Array<{ id: string }>).map((s) => s.id));

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
			'token',
			'username',
			'password',
			'requestTimeout',
		]);
		expect(credential.properties.find((p) => p.name === 'authentication')?.default).toBe('token');
		for (const secret of ['token', 'password']) {
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
		expect(options.headers).toEqual({
			Accept: 'application/json',
			Authorization: 'abc',
			'X-Experience-API-Version': '1.0.3',
		});
	});

	test('authenticate sends the Authorization to the record store only, never to another host', async () => {
		const credentials = { endpoint: ENDPOINT, authentication: 'basic', username: 'key', password: 'secret' };
		for (const url of ['https://elsewhere.test/statements', 'http://other.test:8080/x']) {
			const options = await credential.authenticate(credentials, {
				url,
				headers: { Authorization: 'Basic stale' },
			});
			expect(options.headers).toEqual({ 'X-Experience-API-Version': '1.0.3' });
		}
		const relative = await credential.authenticate(credentials, { baseURL: ENDPOINT, url: '/statements' });
		expect(relative.headers?.Authorization).toMatch(/^Basic /);
	});

	test('the connection test asks the LRS for one statement', () => {
		expect(credential.test.request).toMatchObject({ url: '/statements', qs: { limit: 1 } });
		expect(credential.test.request.baseURL).toContain('$credentials.endpoint');
	});
});
