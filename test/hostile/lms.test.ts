/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * The LMS node against servers that redirect, hang, flood, page forever or answer nonsense:
 * real loopback HTTP servers (a second one on another port plays the foreign host), driven
 * through n8n's execution engine. Each test names the point of the hardening it holds.
 */
import { createCredentialsHelper } from '../../harness/engine';
import { json, text } from '../../harness/loopback';
import { LMS_NODE, runNode } from '../helpers/workflows';
import {
	SECRET,
	accepted,
	apiCalls,
	expectNoSecret,
	hostilePlatform,
	platformCredentials,
	realNetwork,
	serve,
	upsert,
} from './platform';
import { tokenFingerprint } from '../../nodes/LearningPlatform/transport/credential';

const COURSES = '/api/developer/v2/courses.json';

realNetwork();
jest.setTimeout(30_000);

describe('1. credentials never follow a redirect to another host', () => {
	test.each([302, 307])(
		'an upsert answered %i to another host fails naming it; the foreign host gets nothing',
		async (status) => {
			const foreign = await serve((_, res) => json(res, 202, accepted('stolen')));
			const platform = await hostilePlatform((_, res) => {
				res.writeHead(status, { location: `${foreign.url}/collect` });
				res.end();
			});

			const run = await runNode({
				credentials: platformCredentials(platform),
				items: [{ id: 'a' }],
				parameters: upsert(),
			});

			expect(foreign.received).toHaveLength(0);
			expect(run.error?.message).toContain('redirected');
			expect(run.error?.message).toContain(foreign.host);
			expect(run.items).toHaveLength(0);
		},
	);

	test('a catalog read redirected within the platform is followed, with the token', async () => {
		const platform = await hostilePlatform((req, res) => {
			if (req.url.startsWith(COURSES)) {
				res.writeHead(302, { location: '/moved/courses.json?offset=0&limit=10' });
				res.end();
				return;
			}
			json(res, 200, { data: [{ id: 'c1', external_id: 'one', name: 'One' }], total_count: 1 });
		});

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: { resource: 'course', operation: 'getMany', returnAll: false, limit: 10 },
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.external_id)).toEqual(['one']);
		const moved = apiCalls(platform).find((r) => r.url.startsWith('/moved/'));
		expect(moved?.headers.authorization).toBe(`Bearer ${platform.token}`);
	});

	test('the token endpoint redirecting elsewhere is not followed: the secret stays home', async () => {
		const foreign = await serve((_, res) => json(res, 200, { access_token: 'foreign' }));
		const platform = await serve((_, res) => {
			res.writeHead(307, { location: `${foreign.url}/api/oauth/token` });
			res.end();
		});

		const run = await runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }],
			parameters: upsert(),
		});

		expect(foreign.received).toHaveLength(0);
		expect(run.error?.message).toMatch(/access token/i);
		expect(run.error?.message).toContain('redirect');
		expectNoSecret(JSON.stringify(run.run.data), [SECRET]);
	});
});

describe('2. the live token and the secret are masked in every error', () => {
	test('an error body echoing the token issued in this run shows it nowhere, in any spelling', async () => {
		const platform = await hostilePlatform((req, res) => {
			const token = platform.token;
			json(res, 400, {
				message: `Bad request for bearer ${token} / BEARER ${token.toUpperCase()}`,
				detail: `raw ${token} b64 ${Buffer.from(token).toString('base64')} url ${encodeURIComponent(token)}`,
				echo: { client_secret: SECRET, header: req.headers.authorization },
			});
		});
		const common = {
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }, { id: 'b' }],
			parameters: upsert(),
		};

		const stopped = await runNode(common);
		const continued = await runNode({
			...common,
			credentials: platformCredentials(platform),
			continueOnFail: true,
		});

		expect(stopped.error?.message).toContain('HTTP 400');
		expect(continued.items).toHaveLength(2);
		expect(String(continued.items[0].json.error)).toContain('Bad request for bearer ***');
		for (const run of [stopped, continued]) {
			const error = run.error as unknown as Record<string, unknown> | undefined;
			const everything = JSON.stringify({
				data: run.run.data,
				error,
				stack: error?.stack,
				description: error?.description,
			});
			expectNoSecret(everything, [platform.token, SECRET]);
		}
	});
});

describe('3. a token is sent only with the values it was issued for', () => {
	test('after the secret changes, the stored token is not reused: the new secret is proven', async () => {
		const platform = await serve((req, res) => {
			if (req.url.startsWith('/api/oauth/token')) {
				return json(res, 401, { error: 'invalid_client', message: 'Client authentication failed' });
			}
			if (req.headers.authorization === 'Bearer old-token')
				return json(res, 200, { data: [], total_count: 0 });
			json(res, 401, { error: 'unauthorized' });
		});
		const credentials = platformCredentials(platform, {
			clientSecret: 'the-old-secret',
			accessToken: 'old-token',
		});
		const data = credentials.learningPlatformOAuth2Api as Record<string, unknown>;
		data.accessTokenFor = tokenFingerprint(data as never);
		data.clientSecret = 'a-new-wrong-secret';

		// The HTTP Request node with the predefined credential sends what a credential Test sends.
		const run = await runNode({
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentialType: 'learningPlatformOAuth2Api',
			credentials,
			parameters: {
				url: `${platform.url}${COURSES}?offset=0&limit=1`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'learningPlatformOAuth2Api',
				options: {},
			},
		});

		expect(run.error).toBeDefined();
		expect(platform.received.some((r) => r.headers.authorization === 'Bearer old-token')).toBe(
			false,
		);
		expect(
			platform.received.some(
				(r) => r.url.startsWith('/api/oauth/token') && r.url.includes('a-new-wrong-secret'),
			),
		).toBe(true);
	});

	test('after the base URL changes, the stored token never reaches the new address', async () => {
		const old = await serve((_, res) => json(res, 200, {}));
		const moved = await hostilePlatform((req, res) =>
			req.headers.authorization === `Bearer ${moved.token}`
				? json(res, 202, accepted('tx-moved'))
				: json(res, 401, { error: 'unauthorized' }),
		);
		const credentials = platformCredentials(old, { accessToken: 'old-token' });
		const data = credentials.learningPlatformOAuth2Api as Record<string, unknown>;
		data.accessTokenFor = tokenFingerprint(data as never);
		data.baseUrl = moved.url;

		const run = await runNode({
			credentials,
			items: [{ id: 'a' }],
			parameters: upsert({ waitForCompletion: false }),
		});

		expect(run.error).toBeUndefined();
		expect(moved.received.some((r) => r.headers.authorization === 'Bearer old-token')).toBe(false);
		expect(apiCalls(moved).at(-1)?.headers.authorization).toBe(`Bearer ${moved.token}`);
	});
});

describe('4. every wait has a deadline, and cancellation stops it', () => {
	test('a server that never answers costs an item its timeout, not 5 × 300 s', async () => {
		const platform = await hostilePlatform(() => {
			/* accepts the request, never answers */
		});

		const run = await runNode({
			credentials: platformCredentials(platform, { requestTimeout: 1 }),
			items: [{ id: 'a' }],
			parameters: upsert({ timeout: 3 }),
		});

		expect(run.error?.message).toMatch(
			/no usable answer within the 3 s allowed; the last attempt: no answer within [\d.]+ s/,
		);
		expect(apiCalls(platform).length).toBeGreaterThanOrEqual(1);
		expect(apiCalls(platform).length).toBeLessThanOrEqual(3);
	});

	test('Transaction → Wait ends at its timeout even while a check hangs', async () => {
		const platform = await hostilePlatform(() => {
			/* never answers */
		});

		const run = await runNode({
			credentials: platformCredentials(platform, { requestTimeout: 30 }),
			parameters: {
				resource: 'transaction',
				operation: 'wait',
				transactionId: 'tx-1',
				options: { timeout: 2 },
			},
		});

		expect(run.error?.message).toMatch(/within the 2 s allowed/);
	});

	test('Retry-After: 86400 fails the item at once, saying when to retry; nothing waits a day', async () => {
		const platform = await hostilePlatform((_, res) =>
			json(res, 429, { message: 'slow down' }, { 'retry-after': '86400' }),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }],
			parameters: upsert(),
		});

		expect(run.error?.message).toMatch(
			/asks to wait 86400 s before retrying \(until \d{4}-\d{2}-\d{2}T/,
		);
		expect(apiCalls(platform)).toHaveLength(1);
	});

	test.each(['-5', '0', 'Thu, 01 Jan 1970 00:00:00 GMT', '99999999999999999999'])(
		'Retry-After %s neither loops hot nor overflows a timer',
		async (retryAfter) => {
			const platform = await hostilePlatform((_, res, index) =>
				index <= 1
					? json(res, 429, {}, { 'retry-after': retryAfter })
					: json(res, 202, accepted('tx-ok')),
			);

			const run = await runNode({
				credentials: platformCredentials(platform),
				items: [{ id: 'a' }],
				parameters: upsert({ waitForCompletion: false }),
			});

			const calls = apiCalls(platform).length;
			if (retryAfter.startsWith('9999')) {
				expect(run.error?.message).toMatch(/asks to wait/);
				expect(calls).toBe(1);
			} else {
				expect(run.error).toBeUndefined();
				expect(calls).toBe(2);
			}
		},
	);

	test('a cancelled run with Continue On Fail sends nothing more', async () => {
		const platform = await hostilePlatform(() => {
			/* every write hangs */
		});
		const controller = new AbortController();
		const items = Array.from({ length: 40 }, (_, i) => ({ id: `c-${i}` }));

		const running = runNode({
			credentials: platformCredentials(platform, { requestsPerMinute: 600, requestTimeout: 60 }),
			items,
			parameters: upsert({ timeout: 600 }),
			continueOnFail: true,
			signal: controller.signal,
		});
		await platform.waitFor(3);
		controller.abort();
		await running;
		const sentAtCancel = apiCalls(platform).length;
		await new Promise((resolve) => setTimeout(resolve, 1500));

		expect(apiCalls(platform).length).toBe(sentAtCancel);
		expect(sentAtCancel).toBeLessThan(items.length);
	});

	test('a run cancelled during a 429 pause stops sleeping', async () => {
		const platform = await hostilePlatform((_, res) =>
			json(res, 429, {}, { 'retry-after': '100' }),
		);
		const controller = new AbortController();

		const running = runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }],
			parameters: upsert({ timeout: 600 }),
			signal: controller.signal,
		});
		await platform.waitFor(2);
		controller.abort();
		await running; // the test's timeout (30 s) is far below the 100 s pause

		expect(apiCalls(platform)).toHaveLength(1);
	});
});

describe('5. paging is bounded', () => {
	test('a server that ignores the offset and gives no total: a clear error, no endless loop, no duplicates', async () => {
		const platform = await hostilePlatform((_, res) =>
			json(res, 200, {
				data: [
					{ id: '1', external_id: 'one' },
					{ id: '2', external_id: 'two' },
				],
			}),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: { resource: 'course', operation: 'getMany', returnAll: true },
		});

		expect(run.error?.message).toMatch(/same page again/);
		expect(apiCalls(platform)).toHaveLength(2);
	});

	test('a huge total served in tiny pages stops at the page ceiling', async () => {
		const platform = await hostilePlatform((req, res) => {
			const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset'));
			json(res, 200, {
				data: [{ id: `id-${offset}`, external_id: `e-${offset}` }],
				total_count: 1_000_000_000,
			});
		});

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: {
				resource: 'course',
				operation: 'getMany',
				returnAll: true,
				options: { maxPages: 20 },
			},
		});

		expect(run.error?.message).toMatch(/stopped after 20 pages/);
		expect(apiCalls(platform)).toHaveLength(21);
	});

	test("archive's lookup of a missing course stops when the server does not advance", async () => {
		const platform = await hostilePlatform((_, res) =>
			json(res, 200, { data: [{ id: '1', external_id: 'other' }], total_count: 5000 }),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: { resource: 'course', operation: 'archive', externalId: 'missing' },
		});

		expect(run.error?.message).toMatch(/same page again/);
		expect(apiCalls(platform)).toHaveLength(2);
	});
});

describe('6. answers are checked against their documented shape', () => {
	const cases: Array<[string, (res: import('node:http').ServerResponse) => void, RegExp]> = [
		[
			'an HTML login page',
			(res) => text(res, 200, '<!doctype html><title>Sign in</title>', 'text/html'),
			/unexpected answer \(HTTP 200, text\/html\): <!doctype html>/,
		],
		[
			'plain text',
			(res) => text(res, 200, 'OK'),
			/unexpected answer \(HTTP 200, text\/plain\): OK/,
		],
		[
			'an empty body',
			(res) => text(res, 200, '', 'application/json'),
			/unexpected answer \(HTTP 200, application\/json\): empty body/,
		],
		[
			'204 No Content',
			(res) => {
				res.writeHead(204);
				res.end();
			},
			/unexpected answer \(HTTP 204/,
		],
		[
			'JSON without data',
			(res) => json(res, 202, { message: 'ok' }),
			/not an accepted write with its transaction \(data: is required\)/,
		],
	];

	test.each(cases)(
		'a write answered with %s is an error, not a success',
		async (_, answer, expected) => {
			const platform = await hostilePlatform((__, res) => answer(res));

			const run = await runNode({
				credentials: platformCredentials(platform),
				items: [{ id: 'a' }],
				parameters: upsert(),
			});

			expect(run.error?.message).toMatch(expected);
			expect(run.items).toHaveLength(0);
		},
	);

	test('Transaction → Get on a non-JSON answer names it instead of crashing', async () => {
		const platform = await hostilePlatform((_, res) =>
			text(res, 200, '<html>maintenance</html>', 'text/html'),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: { resource: 'transaction', operation: 'get', transactionId: 'tx-1' },
		});

		expect(run.error?.message).toMatch(/unexpected answer \(HTTP 200, text\/html\)/);
		expect(run.error?.message).not.toMatch(/Cannot read properties/);
	});
});

describe('7. error bodies are read only up to a bound', () => {
	test('a 30 MB error body is not read to its end, and the message stays short', async () => {
		const closedEarly: boolean[] = [];
		const platform = await hostilePlatform((_, res) => {
			res.writeHead(422, { 'content-type': 'text/plain' });
			const chunk = Buffer.alloc(1024 * 1024, 'x');
			let sent = 0;
			const pump = () => {
				while (sent < 30 && res.write(chunk)) sent++;
				if (sent >= 30) res.end();
				else
					res.once('drain', () => {
						sent++;
						pump();
					});
			};
			res.on('close', () => closedEarly.push(!res.writableFinished));
			pump();
		});

		const run = await runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }],
			parameters: upsert({ timeout: 20 }),
		});

		expect(run.error?.message).toMatch(/HTTP 422/);
		expect(run.error!.message.length).toBeLessThan(600);
		expect(String((run.error as { description?: string }).description ?? '').length).toBeLessThan(
			2100,
		);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(closedEarly.length).toBeGreaterThan(0);
		expect(closedEarly.every(Boolean)).toBe(true);
	});
});

describe('8. input that should be refused is refused before anything is sent', () => {
	test.each([
		[
			'an amount of 1e400',
			{ prices: { price: [{ amount: '1e400', currency: 'USD' }] } },
			/Amount \(price 1\): must be a number/,
		],
		[
			'an amount of Infinity',
			{ prices: { price: [{ amount: '={{ Infinity }}', currency: 'USD' }] } },
			/Amount \(price 1\): must be a finite number/,
		],
		[
			'an amount given as [5]',
			{ prices: { price: [{ amount: '={{ [5] }}', currency: 'USD' }] } },
			/Amount \(price 1\): must be a number/,
		],
		[
			'an amount given as true',
			{ prices: { price: [{ amount: '={{ true }}', currency: 'USD' }] } },
			/Amount \(price 1\): must be a number/,
		],
		['a javascript: URL', { url: 'javascript:alert(1)' }, /URL: must be a full http\(s\) URL/],
		['a data: URL', { url: 'data:text/html,hi' }, /URL: must be a full http\(s\) URL/],
		[
			'a megabyte-long external id',
			{ externalId: 'x'.repeat(1024 * 1024) },
			/External ID: must be at most 255 characters/,
		],
		[
			'a publish date with a +05:00 offset',
			{ additionalFields: { publishedAt: '2026-05-01T23:30:00+05:00' } },
			/Published At: has a time and a time zone/,
		],
		[
			'an expiry with a time zone',
			{ additionalFields: { expirationDate: '2026-05-01T23:30:00Z' } },
			/Expiration Date: has a time zone/,
		],
	])('%s', async (_, change, expected) => {
		const platform = await hostilePlatform((__, res) => json(res, 202, accepted('tx')));

		const run = await runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'a' }],
			parameters: { ...upsert(), ...change },
		});

		expect(run.error?.message).toMatch(expected);
		expect(apiCalls(platform)).toHaveLength(0);
	});

	test.each(['..', '.', 'y'.repeat(300)])('transaction id %s never becomes a path', async (id) => {
		const platform = await hostilePlatform((__, res) => json(res, 200, {}));

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: { resource: 'transaction', operation: 'get', transactionId: id },
		});

		expect(run.error?.message).toMatch(/Transaction ID: (cannot be|must be at most)/);
		expect(apiCalls(platform)).toHaveLength(0);
	});

	test('a midnight timestamp keeps its date; a local date-time from a date picker keeps its date', async () => {
		const platform = await hostilePlatform((__, res) => json(res, 202, accepted('tx')));

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: {
				resource: 'assignment',
				operation: 'assign',
				email: 'ada@example.com',
				externalId: 'c-1',
				additionalFields: {
					dueDate: '2026-12-01T00:00:00+05:00',
					assignedDate: '2026-11-20T15:30:00',
				},
				options: { waitForCompletion: false },
			},
		});

		expect(run.error).toBeUndefined();
		expect(JSON.parse(apiCalls(platform)[0].body)).toMatchObject({
			due_date: '2026-12-01',
			assigned_date: '2026-11-20',
		});
	});
});

describe('9. two credentials of one client id with different rates', () => {
	test('the lower rate wins, and the node says so', async () => {
		const platform = await hostilePlatform((__, res) => json(res, 202, accepted('tx')));
		const credentials = platformCredentials(platform, { requestsPerMinute: 60000 });
		const slower = {
			learningPlatformOAuth2Api: {
				...credentials.learningPlatformOAuth2Api,
				requestsPerMinute: 6000,
			},
		};
		const run = (creds: typeof credentials, credentialId: string) =>
			runNode({
				credentials: creds,
				credentialId,
				items: [{ id: 'a' }],
				parameters: upsert({ waitForCompletion: false }),
			});

		await run(slower, 'slow-credential');
		const fast = await run(credentials, 'fast-credential');

		const hints = JSON.stringify(fast.run.data.resultData.runData.Node[0].hints ?? []);
		expect(fast.error).toBeUndefined();
		expect(hints).toContain('asks for 6000, so this one is paced at 6000 too');
	});
});

test('the HTTP Request node with this credential sends the token to the base URL, and nowhere else', async () => {
	const foreign = await serve((_, res) => json(res, 200, {}));
	const platform = await hostilePlatform((_, res) => json(res, 200, { data: [], total_count: 0 }));
	const request = (url: string) =>
		runNode({
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentialType: 'learningPlatformOAuth2Api',
			credentials: platformCredentials(platform),
			parameters: {
				url,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'learningPlatformOAuth2Api',
				options: {},
			},
		});

	const own = await request(`${platform.url}${COURSES}`);
	await request(`${foreign.url}/collect`);

	expect(own.error).toBeUndefined();
	expect(apiCalls(platform)[0].headers.authorization).toBe(`Bearer ${platform.token}`);
	expect(foreign.received.every((r) => r.headers.authorization === undefined)).toBe(true);
});
