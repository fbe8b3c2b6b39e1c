/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * The two credentials as every consumer uses them — the credential Test as n8n's server runs it,
 * and n8n's own HTTP Request node with a predefined credential type — against real loopback
 * servers that redirect elsewhere, echo what they were sent, or issue tokens the nodes must refuse.
 */
import type { ICredentialDataDecryptedObject as IDataObject } from 'n8n-workflow';

import type { Loopback } from '../../harness/loopback';
import { json } from '../../harness/loopback';
import { runCredentialTest } from '../unit/XApi/credentialTest';
import { runNode, XAPI_NODE } from '../helpers/workflows';
import {
	SECRET,
	apiCalls,
	expectNoSecret,
	hostilePlatform,
	platformCredentials,
	realNetwork,
	serve,
	upsert,
} from './platform';

realNetwork();
jest.setTimeout(30_000);

const COURSES = '/api/developer/v2/courses.json';
const LRS_TOKEN = 'Basic bHJzLXRva2VuOnNlY3JldA==';
const LRS_PASSWORD = 'lrs-Pass/word+1';

function lrsCredentials(server: Loopback, authentication: 'token' | 'basic'): IDataObject {
	return authentication === 'token'
		? { endpoint: `${server.url}/xAPI`, authentication, token: LRS_TOKEN, requestTimeout: 1 }
		: {
				endpoint: `${server.url}/xAPI`,
				authentication,
				username: 'lrs-key',
				password: LRS_PASSWORD,
				requestTimeout: 1,
			};
}

/** What a credential of each kind would put in a request: none of it may reach `foreign`. */
function expectForeignGotNothing(foreign: Loopback): void {
	for (const request of foreign.received) {
		expect(request.headers.authorization).toBeUndefined();
		expectNoSecret(JSON.stringify(request), [SECRET, LRS_TOKEN, LRS_PASSWORD]);
	}
}

/** A server whose every answer (but the token endpoint's) is a redirect to `target`. */
function redirectingTo(status: number, target: () => string) {
	return (_req: unknown, res: import('node:http').ServerResponse) => {
		res.writeHead(status, { location: target() });
		res.end();
	};
}

function httpRequestNode(type: string, url: string, credentials: Record<string, IDataObject>) {
	return runNode({
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		credentialType: type,
		credentials,
		parameters: {
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: type,
			options: {},
		},
	});
}

describe('1. the credentials never follow a redirect to another host, whoever uses them', () => {
	describe.each([302, 307])('answered %i to another host', (status) => {
		test('the LMS credential Test fails and the other host gets nothing', async () => {
			const foreign = await serve((_, res) => json(res, 200, { data: [], total_count: 0 }));
			const platform = await hostilePlatform(
				redirectingTo(status, () => `${foreign.url}${COURSES}`),
			);

			const result = await runCredentialTest(
				'learningPlatformOAuth2Api',
				platformCredentials(platform).learningPlatformOAuth2Api as IDataObject,
			);

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/redirect/i);
			expectForeignGotNothing(foreign);
		});

		test.each(['token', 'basic'] as const)(
			'the xAPI credential Test (%s) fails and the other host gets nothing',
			async (authentication) => {
				const foreign = await serve((_, res) => json(res, 200, { statements: [] }));
				const lrs = await serve(redirectingTo(status, () => `${foreign.url}/xAPI/statements`));

				const result = await runCredentialTest('xApiLrsApi', lrsCredentials(lrs, authentication));

				expect(result.status).toBe('Error');
				expect(result.message).toMatch(/redirect/i);
				expect(lrs.received).toHaveLength(1);
				expectForeignGotNothing(foreign);
			},
		);

		test('the HTTP Request node with the LMS credential: the redirect arrives without the token', async () => {
			const foreign = await serve((_, res) => json(res, 200, {}));
			const platform = await hostilePlatform(redirectingTo(status, () => `${foreign.url}/collect`));

			await httpRequestNode(
				'learningPlatformOAuth2Api',
				`${platform.url}${COURSES}`,
				platformCredentials(platform),
			);

			expect(apiCalls(platform)[0].headers.authorization).toBe(`Bearer ${platform.token}`);
			expect(foreign.received.length).toBeGreaterThan(0);
			expectForeignGotNothing(foreign);
			for (const request of foreign.received) {
				expect(JSON.stringify(request)).not.toContain(platform.token);
			}
		});

		test.each(['token', 'basic'] as const)(
			'the HTTP Request node with the xAPI credential (%s): the redirect arrives without it',
			async (authentication) => {
				const foreign = await serve((_, res) => json(res, 200, {}));
				const lrs = await serve(redirectingTo(status, () => `${foreign.url}/collect`));

				await httpRequestNode('xApiLrsApi', `${lrs.url}/xAPI/statements`, {
					xApiLrsApi: lrsCredentials(lrs, authentication),
				});

				expect(lrs.received[0].headers.authorization).toBeDefined();
				expect(foreign.received.length).toBeGreaterThan(0);
				expectForeignGotNothing(foreign);
			},
		);
	});

	test('a redirect within the same origin still carries the credentials (HTTP Request node)', async () => {
		const lrs = await serve((req, res) => {
			if (req.url.startsWith('/old/')) {
				res.writeHead(302, { location: '/xAPI/statements' });
				res.end();
				return;
			}
			json(res, 200, { statements: [] });
		});

		const run = await httpRequestNode('xApiLrsApi', `${lrs.url}/old/statements`, {
			xApiLrsApi: lrsCredentials(lrs, 'token'),
		});

		expect(run.error).toBeUndefined();
		expect(lrs.received.map((r) => r.headers.authorization)).toEqual([LRS_TOKEN, LRS_TOKEN]);
	});

	test('the LMS credential Test still passes against a platform that answers', async () => {
		const platform = await hostilePlatform((_, res) =>
			json(res, 200, { data: [], total_count: 0 }),
		);

		const result = await runCredentialTest(
			'learningPlatformOAuth2Api',
			platformCredentials(platform).learningPlatformOAuth2Api as IDataObject,
		);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(apiCalls(platform)[0].headers.authorization).toBe(`Bearer ${platform.token}`);
	});
});

/** Everything a run leaves behind that a user or a log could see: output, error, causes, stacks. */
function wholeRun(run: { run: { data: unknown }; error?: unknown; items?: unknown }): string {
	const parts: unknown[] = [run.run.data, run.items];
	let current = run.error as Record<string, unknown> | undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
		parts.push(current, current.message, current.description, current.stack, current.context);
		current = current.cause as Record<string, unknown> | undefined;
	}
	return JSON.stringify(parts);
}

const TOKEN = 'issued-Live+token/for=this';

/** A platform whose token endpoint answers `answer`, and whose API answers with `handler`. */
async function platformAnswering(
	answer: unknown,
	handler = (_req: unknown, res: import('node:http').ServerResponse) =>
		json(res, 200, { data: [], total_count: 0 }),
) {
	return serve((req, res) => {
		if (req.url.startsWith('/api/oauth/token')) return json(res, 200, answer);
		return handler(req, res);
	});
}

describe('2. a token answer the node refuses never shows the token', () => {
	test.each([
		[
			'expires_in as text',
			{ access_token: TOKEN, token_type: 'bearer', expires_in: '3600' },
			'expires_in',
		],
		['expires_in 0', { access_token: TOKEN, expires_in: 0 }, 'expires_in'],
		['expires_in -1', { access_token: TOKEN, expires_in: -1 }, 'expires_in'],
		['expires_in null', { access_token: TOKEN, expires_in: null }, 'expires_in'],
		['access_token a number', { access_token: 918273645546372, expires_in: 3600 }, 'access_token'],
		[
			'access_token an object',
			{ access_token: { value: TOKEN }, expires_in: 3600 },
			'access_token',
		],
	])('%s: the item fails naming the field, the token is nowhere', async (_, answer, field) => {
		const platform = await platformAnswering(answer);

		const run = await runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }],
			parameters: upsert(),
		});
		const test = await runCredentialTest(
			'learningPlatformOAuth2Api',
			platformCredentials(platform).learningPlatformOAuth2Api as IDataObject,
		);

		expect(run.error?.message).toMatch(/access token/i);
		expect(run.error?.message).toContain(field);
		expect(apiCalls(platform)).toHaveLength(0);
		expect(test.status).toBe('Error');
		const secrets = [TOKEN, '918273645546372', SECRET];
		expectNoSecret(wholeRun(run), secrets);
		expectNoSecret(JSON.stringify(test), secrets);
	});
});

describe('3. a Client ID typed with outer spaces is still one client: masked, throttled, tokens shared', () => {
	test('an API echoing the token puts it in no output when the Client ID has spaces', async () => {
		const platform = await hostilePlatform((req, res) =>
			json(res, 200, {
				data: [{ id: 'c1', external_id: 'one', name: `echo ${req.headers.authorization}` }],
				total_count: 1,
			}),
		);
		const credentials = platformCredentials(platform);
		const data = credentials.learningPlatformOAuth2Api as IDataObject;
		data.clientId = `  ${String(data.clientId)} `;

		const run = await runNode({
			credentials,
			parameters: { resource: 'course', operation: 'getMany', returnAll: true },
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.name)).toEqual(['echo Bearer ***']);
		const tokenRequest = platform.received.find((r) => r.url.startsWith('/api/oauth/token'));
		expect(new URL(tokenRequest!.url, platform.url).searchParams.get('client_id')).toBe(
			String(data.clientId).trim(),
		);
		expectNoSecret(wholeRun(run), [platform.token, SECRET]);
	});
});

describe('4. output items never carry a credential the server echoed', () => {
	test('Course → Get Many: the token and the secret echoed in courses are masked', async () => {
		const platform = await hostilePlatform((req, res) =>
			json(res, 200, {
				data: [
					{
						id: 'c1',
						external_id: 'one',
						name: 'One',
						description: `sent ${req.headers.authorization}`,
					},
					{ id: 'c2', external_id: 'two', name: 'Two', tags: [platform.token, `x ${SECRET}`] },
				],
				total_count: 2,
			}),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: { resource: 'course', operation: 'getMany', returnAll: true },
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.external_id)).toEqual(['one', 'two']);
		expect(run.items[1].json.tags).toEqual(['***', 'x ***']);
		expectNoSecret(wholeRun(run), [platform.token, SECRET]);
	});

	test('Transaction → Get and Course → Create or Update: echoed tokens are masked', async () => {
		const transaction = () => ({
			id: 'tx-1',
			status: 'success',
			http_method: 'POST',
			response: { message: `done for ${platform.token}`, token: platform.token },
		});
		const platform = await hostilePlatform((req, res) => {
			if (req.method === 'POST') {
				return json(res, 202, {
					message: `accepted ${platform.token}`,
					data: { ...transaction(), status: 'initiated' },
				});
			}
			return json(res, 200, { response: { echo: req.headers.authorization }, data: transaction() });
		});
		const credentials = platformCredentials(platform);

		const get = await runNode({
			credentials,
			parameters: { resource: 'transaction', operation: 'get', transactionId: 'tx-1' },
		});
		const upserted = await runNode({ credentials, items: [{ id: 'a' }], parameters: upsert() });

		expect(get.error).toBeUndefined();
		expect(upserted.error).toBeUndefined();
		expect(get.items).toHaveLength(1);
		expect(upserted.items).toHaveLength(1);
		expect(JSON.stringify(get.items)).toContain('done for ***');
		expect(upserted.items[0].json.confirmation).toBe('confirmed');
		expectNoSecret(wholeRun(get), [platform.token, SECRET]);
		expectNoSecret(wholeRun(upserted), [platform.token, SECRET]);
	});

	test.each(['token', 'basic'] as const)(
		'xAPI Statement → Get (%s): an authority echoing the credential is masked',
		async (authentication) => {
			const lrs = await serve((req, res) =>
				json(res, 200, {
					id: 'b1c0e5e2-35a5-4c4e-9d0f-0c1f6f1f7a11',
					actor: { mbox: 'mailto:ada@example.com' },
					verb: { id: 'http://adlnet.gov/expapi/verbs/completed' },
					object: { id: 'https://learn.test/c/1' },
					stored: '2026-01-01T00:00:00.000Z',
					timestamp: '2026-01-01T00:00:00.000Z',
					version: '1.0.3',
					authority: {
						objectType: 'Agent',
						account: {
							homePage: 'https://lrs.test',
							name: `${req.headers.authorization}${authentication === 'basic' ? ` lrs-key:${LRS_PASSWORD}` : ''}`,
						},
					},
				}),
			);

			const run = await runNode({
				type: XAPI_NODE,
				credentials: { xApiLrsApi: lrsCredentials(lrs, authentication) },
				parameters: {
					resource: 'statement',
					operation: 'get',
					statementId: 'b1c0e5e2-35a5-4c4e-9d0f-0c1f6f1f7a11',
				},
			});

			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(1);
			expect(JSON.stringify(run.items[0].json.authority)).toContain('***');
			const header = String(lrs.received[0].headers.authorization);
			expectNoSecret(wholeRun(run), [
				authentication === 'basic' ? LRS_PASSWORD : LRS_TOKEN,
				header.replace(/^Basic /, ''),
			]);
		},
	);
});

describe('12. a token that cannot be a header value is refused, never altered and sent', () => {
	test.each([
		['a line break', 'tok-abc\r\nX-Injected: yes'],
		['a NUL', 'tok-abc\u0000def'],
		['a non-ASCII character', 'tok-abc€def'],
		['a space', 'tok-abc def'],
	])('an issued token with %s fails every item, says why, and is not quoted', async (_, raw) => {
		const issued = raw;
		const platform = await platformAnswering({ access_token: issued, expires_in: 3600 });

		const run = await runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }, { id: 'b' }],
			parameters: upsert(),
			continueOnFail: true,
		});

		expect(apiCalls(platform)).toHaveLength(0);
		expect(run.items).toHaveLength(2);
		for (const item of run.items) expect(String(item.json.error)).toMatch(/access token/i);
		expect(JSON.stringify(run.items)).toMatch(/cannot be sent in an HTTP header/);
		expectNoSecret(wholeRun(run), [issued, SECRET]);
		expect(wholeRun(run)).not.toContain('tok-abc');
	});

	test.each([
		['a line break', 'Basic abc\ndef0123'],
		['a non-ASCII character', 'tok€en-0123456'],
		['a NUL', 'tok\u0000en-0123456'],
	])('an xAPI Token with %s is refused before anything is sent, and not quoted', async (_, raw) => {
		const token = raw;
		const lrs = await serve((_req, res) => json(res, 200, { statements: [] }));
		const credentials = { xApiLrsApi: { ...lrsCredentials(lrs, 'token'), token } };

		const run = await runNode({
			type: XAPI_NODE,
			credentials,
			parameters: { resource: 'statement', operation: 'getMany', returnAll: true, filters: {} },
		});
		const test = await runCredentialTest('xApiLrsApi', credentials.xApiLrsApi);

		expect(lrs.received).toHaveLength(0);
		expect(run.error?.message).toMatch(/cannot be sent in an HTTP header/);
		expect(test.status).toBe('Error');
		expect(test.message).toMatch(/cannot be sent in an HTTP header/);
		for (const form of [token, token.slice(0, 8)]) {
			expect(wholeRun(run)).not.toContain(form);
			expect(JSON.stringify(test)).not.toContain(form);
		}
	});
});

describe('13. a token endpoint quoting the secret as it was sent shows it nowhere', () => {
	const secret = "Sécret (it's) ~mine! *x* + a/b=c";
	/** The secret exactly as the request carried it: the raw value of `client_secret` in `sent`. */
	const asSent = (sent: string) => /client_secret=([^&]*)/.exec(sent)?.[1] ?? '';
	const refusing = (sent: (req: { url: string; body: string }) => string) =>
		serve((req, res) => {
			const raw = asSent(sent(req));
			json(res, 400, {
				error: 'invalid_client',
				error_description: `invalid client_secret=${raw} (got ${raw})`,
			});
		});

	test('the LMS token request (the secret in the query string)', async () => {
		const platform = await refusing((req) => req.url);

		const run = await runNode({
			credentials: platformCredentials(platform, { clientSecret: secret }),
			items: [{ id: 'a' }],
			parameters: upsert(),
			continueOnFail: true,
		});

		expect(asSent(platform.received[0].url)).not.toBe('');
		expect(String(run.items[0].json.error)).toContain('invalid client_secret=*** (got ***)');
		expectNoSecret(wholeRun(run), [secret]);
	});

	test('the xAPI OAuth2 token request (the secret form-encoded in the body)', async () => {
		const lrs = await refusing((req) => req.body);
		const credentials = {
			endpoint: `${lrs.url}/xAPI`,
			authentication: 'oauth2',
			clientId: `form-${Date.now()}`,
			clientSecret: secret,
			scope: 'xapi:write',
			tokenUrl: '',
			accessToken: '',
			requestTimeout: 1,
		};

		const run = await runNode({
			type: XAPI_NODE,
			credentials: { xApiLrsApi: credentials },
			items: [
				{
					statement: {
						actor: { mbox: 'mailto:a@b.c' },
						verb: { id: 'http://x.test/v' },
						object: { id: 'http://x.test/o' },
					},
				},
			],
			parameters: {
				resource: 'statement',
				operation: 'send',
				inputMode: 'json',
				statement: '={{ $json.statement }}',
				options: {},
			},
			continueOnFail: true,
		});
		const test = await runCredentialTest('xApiLrsApi', credentials);

		expect(asSent(lrs.received[0].body)).toBe(
			new URLSearchParams({ s: secret }).toString().slice(2),
		);
		expect(String(run.items[0].json.error)).toContain('invalid client_secret=*** (got ***)');
		expect(test.status).toBe('Error');
		expectNoSecret(wholeRun(run), [secret]);
		expectNoSecret(JSON.stringify(test), [secret]);
	});
});
