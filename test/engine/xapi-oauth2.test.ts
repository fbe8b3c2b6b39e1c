/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * The xAPI node with OAuth2 client credentials against the sandbox's push endpoint
 * (platform-docs 002), through n8n's execution engine: the token, its reuse, refresh and
 * binding; pacing to 10 requests per 10 s across executions; refused credentials; masking; and
 * repeat-safe ids from an idempotency key. Real sockets and real time: the pacing tests take
 * as long as the budget makes them.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { createCredentialsHelper } from '../../harness/engine';
import type { HarnessCredentialsHelper } from '../../harness/credentialsHelper';
import { startLoopback } from '../../harness/loopback';
import { LRS_STATEMENTS_PATH, LRS_TOKEN_PATH } from '../../sandbox/server';
import type { LoggedRequest } from '../../sandbox/server';
import { XApiLrsApi } from '../../credentials/XApiLrsApi.credentials';
import { useSandbox } from '../helpers/sandbox';
import { runNode, XAPI_NODE } from '../helpers/workflows';
import { runCredentialTest } from '../unit/XApi/credentialTest';

const fixture = useSandbox();

const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed';

let clientNumber = 0;

/**
 * A fresh OAuth 2 App for each test: the process keeps tokens and pacing per endpoint and
 * client ID for its whole life, as n8n does, so each test gets a client of its own.
 */
function newClient(): ICredentialDataDecryptedObject {
	const clientId = `oauth2-app-${++clientNumber}-${Date.now()}`;
	const clientSecret = `s3cr3t/${clientNumber}+${'x'.repeat(12)}==`;
	fixture.sandbox.configure({ lrsClientId: clientId, lrsClientSecret: clientSecret });
	return {
		endpoint: fixture.sandbox.lrsEndpoint,
		authentication: 'oauth2',
		clientId,
		clientSecret,
		scope: 'xapi:write',
		tokenUrl: '',
		accessToken: '',
	};
}

const helperFor = (credential: ICredentialDataDecryptedObject) =>
	createCredentialsHelper({ xApiLrsApi: credential });

function statement(n: number, email = 'ada@example.com'): IDataObject {
	return {
		actor: { name: 'Ada', mbox: `mailto:${email}` },
		verb: { id: COMPLETED, display: { 'en-US': 'completed' } },
		object: {
			objectType: 'Activity',
			id: `https://learn.test/cards/${n}`,
			definition: {
				type: 'http://adlnet.gov/expapi/activities/course',
				name: { 'en-US': `Card ${n}` },
			},
		},
		result: { completion: true },
	};
}

async function send(
	helper: HarnessCredentialsHelper,
	items: IDataObject[],
	{
		continueOnFail = false,
		options = {},
		credentialId,
	}: { continueOnFail?: boolean; options?: INodeParameters; credentialId?: string } = {},
) {
	return await runNode({
		type: XAPI_NODE,
		parameters: {
			resource: 'statement',
			operation: 'send',
			inputMode: 'json',
			statement: '={{ $json.statement }}',
			additionalFields: { idempotencyKey: '={{ $json.key ?? "" }}' },
			options,
		},
		items,
		credentialsHelper: helper,
		credentialId,
		continueOnFail,
	});
}

const statementsOf = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => ({ statement: statement(from + i) }));

const log = () => fixture.sandbox.requests();
const tokenRequests = () => log().filter((r) => r.path === LRS_TOKEN_PATH);
const statementPosts = () => log().filter((r) => r.path === LRS_STATEMENTS_PATH);
const stored = () => fixture.sandbox.state().lrs.statements;

beforeEach(() => {
	// Each test starts with the platform's documented budget.
	fixture.sandbox.configure({ lrsRatePer10Sec: 10 });
});

describe('the token', () => {
	test('is fetched once with the documented form, sent as Bearer, and reused across items and executions', async () => {
		const credential = newClient();
		const helper = helperFor(credential);

		const first = await send(helper, statementsOf(3));
		const second = await send(helper, statementsOf(2, 3));

		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		expect(stored()).toHaveLength(5);
		expect(tokenRequests()).toHaveLength(1);
		const [token] = tokenRequests();
		expect(token.method).toBe('POST');
		expect(token.query).toEqual({});
		expect(token.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(Object.fromEntries(new URLSearchParams(String(token.body)))).toEqual({
			grant_type: 'client_credentials',
			scope: 'xapi:write',
			client_id: credential.clientId,
			client_secret: credential.clientSecret,
		});
		const saved = helper.store.xApiLrsApi.accessToken as string;
		expect(saved).not.toBe('');
		expect(statementPosts().every((r) => r.headers.authorization === `Bearer ${saved}`)).toBe(true);
		// One statement per request: the push endpoint documents no arrays.
		expect(statementPosts().every((r) => !Array.isArray(r.body))).toBe(true);
		expect(first.items.map((item) => item.json.recorded)).toEqual([
			'recorded',
			'recorded',
			'recorded',
		]);
	}, 30_000);

	test('concurrent executions share one token request', async () => {
		const credential = newClient();

		const runs = await Promise.all([
			send(helperFor({ ...credential }), statementsOf(2)),
			send(helperFor({ ...credential }), statementsOf(2, 2)),
		]);

		expect(runs.map((run) => run.error)).toEqual([undefined, undefined]);
		expect(tokenRequests()).toHaveLength(1);
		expect(stored()).toHaveLength(4);
	}, 30_000);

	test('is fetched again once after a 401 (expired or revoked), and the statement is sent again', async () => {
		const credential = newClient();
		const helper = helperFor(credential);
		await send(helper, statementsOf(1));
		const firstToken = helper.store.xApiLrsApi.accessToken;
		fixture.sandbox.revokeLrsTokens();

		const run = await send(helper, statementsOf(1, 1));

		expect(run.error).toBeUndefined();
		expect(stored()).toHaveLength(2);
		expect(tokenRequests()).toHaveLength(2);
		const posts = statementPosts();
		expect(posts.map((r) => r.status)).toEqual([200, 401, 200]);
		expect(posts[1].headers.authorization).toBe(`Bearer ${firstToken}`);
		expect(posts[2].headers.authorization).not.toBe(`Bearer ${firstToken}`);
	}, 30_000);

	test('is bound to the values it was issued for: after the scope changes, the old token is not sent', async () => {
		const credential = newClient();
		const helper = helperFor(credential);
		await send(helper, statementsOf(1));
		const oldToken = helper.store.xApiLrsApi.accessToken as string;
		helper.store.xApiLrsApi.scope = 'xapi:write openid';

		const run = await send(helper, statementsOf(1, 1));

		expect(run.error).toBeUndefined();
		const posts = statementPosts();
		// The second execution asked for a token for the new scope first: no request went without one.
		expect(posts.map((r) => r.status)).toEqual([200, 200]);
		expect(posts[1].headers.authorization).toMatch(/^Bearer /);
		expect(posts[1].headers.authorization).not.toBe(`Bearer ${oldToken}`);
		expect(tokenRequests()).toHaveLength(2);
		expect(new URLSearchParams(String(tokenRequests()[1].body)).get('scope')).toBe(
			'xapi:write openid',
		);
	}, 30_000);

	test('goes only to the endpoint: another host never gets it', async () => {
		const credential = newClient();
		const helper = helperFor(credential);
		await send(helper, statementsOf(1));
		const saved = helper.store.xApiLrsApi;

		const options = await new XApiLrsApi().authenticate(saved, {
			url: 'https://elsewhere.test/api/lrs/v1/xapi/statements',
			headers: { Authorization: 'Bearer stale' },
		});
		const own = await new XApiLrsApi().authenticate(saved, {
			url: `${fixture.sandbox.lrsEndpoint}/statements`,
		});

		expect(options.headers).toEqual({ 'X-Experience-API-Version': '1.0.3' });
		expect(own.headers?.authorization).toBe(`Bearer ${saved.accessToken}`);
	}, 30_000);

	test('a token URL that redirects is not followed: the secret stays where it was sent', async () => {
		const credential = newClient();
		const target = await startLoopback();
		const redirecting = await startLoopback((_, res) => {
			res.writeHead(307, { Location: `${target.url}/oauth2/token` });
			res.end();
		});
		try {
			const run = await send(
				helperFor({ ...credential, tokenUrl: `${redirecting.url}/oauth2/token` }),
				statementsOf(1),
				{ continueOnFail: true },
			);

			const tested = await runCredentialTest('xApiLrsApi', {
				...credential,
				tokenUrl: `${redirecting.url}/oauth2/token`,
			});

			expect(redirecting.received).toHaveLength(2);
			expect(target.received).toHaveLength(0);
			expect(String(run.items[0].json.error)).toMatch(/redirect was not followed/);
			expect(tested).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(/redirect was not followed/),
			});
			expect(stored()).toHaveLength(0);
		} finally {
			await redirecting.close();
			await target.close();
		}
	}, 30_000);

	test('the credential Test fetches a token, and says when the credentials are refused', async () => {
		const credential = newClient();

		const ok = await runCredentialTest('xApiLrsApi', { ...credential });
		const refused = await runCredentialTest('xApiLrsApi', {
			...credential,
			clientSecret: 'wrong-secret-value',
		});

		expect(ok.status).toBe('OK');
		expect(refused.status).toBe('Error');
		expect(refused.message).toMatch(/refused the client credentials/);
		expect(refused.message).not.toContain('wrong-secret-value');
		expect(statementPosts()).toHaveLength(0);
		expect(tokenRequests().length).toBeGreaterThanOrEqual(2);
	}, 30_000);
});

describe('refused credentials', () => {
	test('a wrong secret fails every item, saying the credentials were refused, and stores nothing', async () => {
		const credential = newClient();
		const wrong = { ...credential, clientSecret: 'not-the-secret-1234' };

		const failing = await send(helperFor(wrong), statementsOf(3));
		const each = await send(helperFor(wrong), statementsOf(3), { continueOnFail: true });

		expect(failing.error?.message).toMatch(/refused the client credentials/);
		expect(each.items).toHaveLength(3);
		for (const item of each.items) {
			expect(String(item.json.error)).toMatch(/refused the client credentials/);
		}
		expect(stored()).toHaveLength(0);
		expect(statementPosts()).toHaveLength(0);
		expect(helperFor(wrong).store.xApiLrsApi.accessToken).toBe('');
	}, 30_000);
});

describe('masking', () => {
	test('neither the secret nor any token shows in outputs or errors, in any spelling', async () => {
		const credential = newClient();
		const helper = helperFor(credential);
		const good = await send(
			helper,
			[
				{ statement: statement(1) },
				{ statement: statement(2, 'ada@unknown.test') },
				{ statement: statement(3), key: 'mask-event' },
			],
			{ continueOnFail: true },
		);
		const token = helper.store.xApiLrsApi.accessToken as string;
		const wrong = await send(
			helperFor({ ...credential, clientSecret: `${credential.clientSecret}-old` }),
			statementsOf(1),
		);
		fixture.sandbox.configure({ lrsClientSecret: 'rotated-secret-value' });
		fixture.sandbox.revokeLrsTokens();
		const afterRotation = await send(helper, statementsOf(1), { continueOnFail: true });

		expect(good.items[1].json.error).toBeDefined();
		expect(wrong.error).toBeDefined();
		expect(afterRotation.items[0].json.error).toBeDefined();
		const everything = JSON.stringify(
			[good, wrong, afterRotation].map((run) => ({
				data: run.run.data,
				error: run.error,
				message: run.error?.message,
				description: (run.error as { description?: string } | undefined)?.description,
				stack: run.error?.stack,
			})),
		);
		expect(token.length).toBeGreaterThan(10);
		for (const secret of [
			credential.clientSecret as string,
			`${credential.clientSecret}-old`,
			token,
		]) {
			for (const form of [
				secret,
				encodeURIComponent(secret),
				encodeURIComponent(secret).replace(/%20/g, '+'),
				Buffer.from(secret).toString('base64'),
				Buffer.from(secret).toString('base64').replace(/=+$/, ''),
			]) {
				expect(everything).not.toContain(form);
			}
		}
	}, 60_000);
});

describe('the push endpoint to the letter', () => {
	test('an unknown learner fails that item with the platform reason; the others are stored', async () => {
		const helper = helperFor(newClient());

		const run = await send(
			helper,
			[
				{ statement: statement(1) },
				{ statement: statement(2, 'bob@unknown.test') },
				{ statement: statement(3) },
			],
			{ continueOnFail: true },
		);

		expect(run.items[0].json.recorded).toBe('recorded');
		expect(run.items[1].json.error).toMatch(
			/^Unknown user: no learner with e-mail bob@unknown\.test/,
		);
		expect(run.items[2].json.recorded).toBe('recorded');
		expect(stored()).toHaveLength(2);
	}, 30_000);

	test('the actor goes as an Agent with its objectType, as the page shows', async () => {
		const helper = helperFor(newClient());

		const run = await send(helper, statementsOf(1));

		expect(run.error).toBeUndefined();
		expect((statementPosts()[0].body as IDataObject).actor).toEqual({
			objectType: 'Agent',
			name: 'Ada',
			mbox: 'mailto:ada@example.com',
		});
	}, 30_000);

	test('a batch size, when set, sends arrays; the endpoint refuses them and each statement then goes alone', async () => {
		const helper = helperFor(newClient());

		const run = await send(helper, statementsOf(2), { options: { batchSize: 2 } });

		expect(run.error).toBeUndefined();
		expect(statementPosts().map((r) => (Array.isArray(r.body) ? r.body.length : 1))).toEqual([
			2, 1, 1,
		]);
		expect(stored()).toHaveLength(2);
	}, 30_000);
});

describe('repeat-safe ids (idempotencyKey)', () => {
	// Independently computed: uuid.uuid5(uuid.UUID('1c00e23b-464b-4b02-b45d-d56d4ad34dd3'), 'completion-42')
	const COMPLETION_42 = 'e3558ddd-ac6f-5278-a8db-cf9ac64135f7';

	test('the same event twice in a run and again in a later run is stored once; the repeats say so', async () => {
		const helper = helperFor(newClient());
		const items = [
			{ statement: statement(1), key: 'completion-42' },
			{ statement: statement(2), key: 'completion-43' },
			{ statement: statement(1), key: 'completion-42' },
		];

		const first = await send(helper, items);
		const again = await send(helper, items);

		expect(first.error).toBeUndefined();
		expect(again.error).toBeUndefined();
		expect(first.items.map((item) => item.json.recorded)).toEqual([
			'recorded',
			'recorded',
			'already recorded',
		]);
		expect(again.items.map((item) => item.json.recorded)).toEqual([
			'already recorded',
			'already recorded',
			'already recorded',
		]);
		expect(first.items[0].json).toMatchObject({
			statementId: COMPLETION_42,
			idempotencyKey: 'completion-42',
		});
		expect(
			stored()
				.map((entry) => entry.id)
				.sort(),
		).toEqual([COMPLETION_42, String(first.items[1].json.statementId)].sort());
		// Within the run the repeat was not even sent.
		expect(
			statementPosts().filter((r) => (r.body as IDataObject).id === COMPLETION_42),
		).toHaveLength(2);
	}, 30_000);

	test('a 409 for a derived id is reported as already recorded with other content, and the batch goes on', async () => {
		const helper = helperFor(newClient());
		await send(helper, [{ statement: statement(1), key: 'completion-42' }]);

		const changed = { ...statement(1), result: { completion: true, success: false } };
		const run = await send(helper, [
			{ statement: changed, key: 'completion-42' },
			{ statement: statement(5), key: 'completion-44' },
		]);

		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({
			statementId: COMPLETION_42,
			recorded: 'already recorded with other content',
			alreadyStored: true,
		});
		expect(String(run.items[0].json.note)).toMatch(/other content/);
		expect(run.items[1].json.recorded).toBe('recorded');
		expect(statementPosts().map((r) => r.status)).toEqual([200, 409, 200]);
		const kept = stored().find((entry) => entry.id === COMPLETION_42);
		expect(kept?.statement.result).toEqual({ completion: true });
	}, 30_000);

	test('a statement ID and an idempotency key together are refused, naming the item', async () => {
		const helper = helperFor(newClient());

		const run = await send(helper, [
			{ statement: statement(1) },
			{
				statement: { ...statement(2), id: '6690e6c9-3ef0-4ed3-8b37-7f3964730bee' },
				key: 'completion-9',
			},
		]);

		expect(run.error?.message).toMatch(
			/item 1: the statement has a Statement ID and an Idempotency Key/,
		);
		expect(statementPosts()).toHaveLength(0);
	}, 30_000);
});

describe('pacing: 10 requests per 10 s per organization', () => {
	/** The most statement requests the sandbox received within any 10 s. */
	function busiestWindow(requests: LoggedRequest[]): number {
		const times = requests.map((r) => Date.parse(r.time)).sort((a, b) => a - b);
		let most = 0;
		for (let i = 0, j = 0; j < times.length; j++) {
			while (times[j] - times[i] >= 10_000) i++;
			most = Math.max(most, j - i + 1);
		}
		return most;
	}

	test('25 statements from two executions at once, default settings: all stored, at most 3 429s, none surfaced', async () => {
		const credential = newClient();
		const started = Date.now();

		const runs = await Promise.all([
			send(helperFor({ ...credential }), statementsOf(13), { credentialId: 'a' }),
			send(helperFor({ ...credential }), statementsOf(12, 13), { credentialId: 'b' }),
		]);

		const elapsed = Date.now() - started;
		expect(runs.map((run) => run.error)).toEqual([undefined, undefined]);
		expect(
			runs.flatMap((run) => run.items).every((item) => item.json.recorded === 'recorded'),
		).toBe(true);
		expect(stored()).toHaveLength(25);
		const throttled = statementPosts().filter((r) => r.status === 429).length;
		expect(throttled).toBeLessThanOrEqual(3);
		const granted = statementPosts().filter((r) => r.status !== 429);
		expect(busiestWindow(granted)).toBeLessThanOrEqual(10);
		// Paced, not sent at once: 25 requests at 10 per 10 s take more than 2 windows.
		expect(elapsed).toBeGreaterThan(20_000);
	}, 90_000);

	test('a 429 from the platform is waited out for its Retry-After and does not surface', async () => {
		const credential = newClient();
		// Someone else used the organization's budget: two requests per 10 s are left.
		fixture.sandbox.configure({ lrsRatePer10Sec: 2 });
		const started = Date.now();

		const run = await send(helperFor(credential), statementsOf(3));

		expect(run.error).toBeUndefined();
		expect(stored()).toHaveLength(3);
		const posts = statementPosts();
		expect(posts.some((r) => r.status === 429)).toBe(true);
		// The third statement could only go once the first left the window.
		expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
	}, 60_000);
});
