/* eslint-disable -- test or tooling code, not part of the n8n package: the community-node rules do not apply */
/**
 * The sandbox's xAPI push endpoint (platform-docs 002): the form-encoded token request, Bearer
 * statements, the 10-per-10-s budget with Retry-After, 401 for bad or expired credentials, and
 * the store (same id and content: once; same id, other content: 409).
 */
import { ManualClock } from '../../sandbox/clock';
import type { Sandbox } from '../../sandbox/server';
import { LRS_STATEMENTS_PATH, LRS_TOKEN_PATH } from '../../sandbox/server';
import { COURSES, DOCUMENTED_HEADERS, issueToken, post, startTestSandbox } from './helpers';

const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed';

function statement(overrides: Record<string, unknown> = {}, email = 'ada@example.com') {
	return {
		actor: { objectType: 'Agent', name: 'Ada', mbox: `mailto:${email}` },
		verb: { id: COMPLETED, display: { 'en-US': 'completed' } },
		object: {
			objectType: 'Activity',
			id: 'https://learn.test/cards/1',
			definition: {
				type: 'http://adlnet.gov/expapi/activities/course',
				name: { 'en-US': 'Card 1' },
			},
		},
		...overrides,
	};
}

async function tokenRequest(
	sandbox: Sandbox,
	form: Record<string, string> = {},
	init: { query?: string; contentType?: string } = {},
) {
	const body = new URLSearchParams({
		grant_type: 'client_credentials',
		scope: 'xapi:write',
		client_id: sandbox.lrsClientId,
		client_secret: sandbox.lrsClientSecret,
		...form,
	});
	const response = await fetch(`${sandbox.url}${LRS_TOKEN_PATH}${init.query ?? ''}`, {
		method: 'POST',
		headers: {
			Accept: 'application/json',
			'Content-Type': init.contentType ?? 'application/x-www-form-urlencoded',
		},
		body: body.toString(),
	});
	return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function lrsToken(sandbox: Sandbox): Promise<string> {
	const answer = await tokenRequest(sandbox);
	if (answer.status !== 200) throw new Error(`token request failed: ${answer.status}`);
	return answer.body.access_token as string;
}

const send = (sandbox: Sandbox, body: unknown, token?: string) =>
	post(sandbox, LRS_STATEMENTS_PATH, body, token);

let sandbox: Sandbox;
let clock: ManualClock;

beforeEach(async () => {
	clock = new ManualClock();
	sandbox = await startTestSandbox({}, clock);
});
afterEach(async () => sandbox.close());

describe('the token endpoint', () => {
	test('issues a bearer token for the form-encoded client credentials', async () => {
		const answer = await tokenRequest(sandbox);

		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			access_token: expect.any(String),
			token_type: 'bearer',
			expires_in: sandbox.options.tokenLifetimeSec,
		});
		expect(sandbox.state().lrs.tokensIssued).toBe(1);
	});

	test.each([
		['a wrong secret', { client_secret: 'wrong' }, 401],
		['an unknown client', { client_id: 'nobody' }, 401],
		['the LMS API client', { client_id: 'sandbox-client', client_secret: 'sandbox-secret' }, 401],
		['another grant type', { grant_type: 'password' }, 400],
		['no xapi:write scope', { scope: 'xapi:read' }, 400],
	])('refuses %s', async (_, form, status) => {
		const answer = await tokenRequest(sandbox, form);

		expect(answer.status).toBe(status);
		expect(answer.body.message).toEqual(expect.any(String));
		expect(answer.body.access_token).toBeUndefined();
		expect(sandbox.state().lrs.tokensIssued).toBe(0);
	});

	test('refuses credentials in the query string and bodies that are not a form', async () => {
		const query = `?client_id=${sandbox.lrsClientId}&client_secret=${sandbox.lrsClientSecret}`;
		expect((await tokenRequest(sandbox, {}, { query })).status).toBe(400);
		expect((await tokenRequest(sandbox, {}, { contentType: 'application/json' })).status).toBe(400);
	});
});

describe('the statements endpoint', () => {
	test('records a statement with a valid bearer token, and only then', async () => {
		const token = await lrsToken(sandbox);

		expect((await send(sandbox, statement())).status).toBe(401);
		expect((await send(sandbox, statement(), 'not-a-token')).status).toBe(401);
		// The LMS API's token is not one of the push endpoint's.
		expect((await send(sandbox, statement(), await issueToken(sandbox))).status).toBe(401);
		expect(sandbox.state().lrs.statements).toEqual([]);

		const stored = await send(sandbox, statement(), token);
		expect(stored.status).toBe(200);
		const [entry] = sandbox.state().lrs.statements;
		expect(entry.id).toBe(stored.body.id);
		expect(entry.statement).toMatchObject(statement());
	});

	test('an expired or revoked token gets 401 and changes nothing', async () => {
		const token = await lrsToken(sandbox);
		clock.advance(sandbox.options.tokenLifetimeSec * 1000);
		const expired = await send(sandbox, statement(), token);
		expect(expired.status).toBe(401);
		expect(expired.body.message).toMatch(/expired/i);

		const fresh = await lrsToken(sandbox);
		sandbox.revokeLrsTokens();
		expect((await send(sandbox, statement(), fresh)).status).toBe(401);
		expect(sandbox.state().lrs.statements).toEqual([]);
	});

	test('the same id with the same content is stored once; with other content it is a 409', async () => {
		const token = await lrsToken(sandbox);
		const id = '0b8fe7ee-9c36-5a8b-8b1e-2f1f0c7f4f11';

		expect((await send(sandbox, statement({ id }), token)).status).toBe(200);
		// Key order does not make it another statement.
		const reordered = {
			object: statement().object,
			verb: statement().verb,
			actor: statement().actor,
			id,
		};
		expect((await send(sandbox, reordered, token)).status).toBe(200);
		const other = await send(sandbox, statement({ id, result: { completion: true } }), token);

		expect(other.status).toBe(409);
		expect(other.body.message).toContain(id);
		expect(sandbox.state().lrs.statements).toHaveLength(1);
	});

	test('one statement per request: an array is refused', async () => {
		const token = await lrsToken(sandbox);
		const answer = await send(sandbox, [statement()], token);

		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(/one statement per request/);
	});

	test('an unknown learner or unknown content is refused with a 4xx and a message', async () => {
		const token = await lrsToken(sandbox);
		const learner = await send(sandbox, statement({}, 'ada@unknown.test'), token);
		expect(learner.status).toBe(422);
		expect(learner.body.message).toBe('Unknown user: no learner with e-mail ada@unknown.test');

		const withEclId = (eclId: string) =>
			statement({
				object: { ...statement().object, id: `https://learn.test/cards/1?ecl_id=${eclId}` },
			});
		const content = await send(sandbox, withEclId('no-such-course'), token);
		expect(content.status).toBe(422);
		expect(content.body.message).toBe('Unknown content: no content with ecl_id no-such-course');

		// A course of the sandbox is known by its external id (and its ecl_id).
		const lmsToken = await issueToken(sandbox);
		const created = await post(
			sandbox,
			COURSES,
			{
				name: 'Safety',
				url: 'https://learn.test/safety',
				external_id: 'safety-101',
				prices_data: [],
			},
			lmsToken,
		);
		expect(created.status).toBe(202);
		expect((await send(sandbox, withEclId('safety-101'), token)).status).toBe(200);
		expect(sandbox.state().lrs.statements).toHaveLength(1);
	});

	test('other verbs than complete and start, and statements missing documented parts, are refused', async () => {
		const token = await lrsToken(sandbox);
		const viewed = statement({
			verb: { id: 'http://id.tincanapi.com/verb/viewed', display: { 'en-US': 'viewed' } },
		});
		expect((await send(sandbox, viewed, token)).status).toBe(400);
		const { objectType: _, ...agentWithoutType } = statement().actor;
		expect((await send(sandbox, statement({ actor: agentWithoutType }), token)).status).toBe(400);
		expect(sandbox.state().lrs.statements).toEqual([]);
	});

	test('needs the documented headers', async () => {
		const token = await lrsToken(sandbox);
		const response = await fetch(`${sandbox.url}${LRS_STATEMENTS_PATH}`, {
			method: 'POST',
			headers: {
				...DOCUMENTED_HEADERS,
				'Content-Type': 'text/plain',
				Authorization: `Bearer ${token}`,
			},
			body: JSON.stringify(statement()),
		});
		expect(response.status).toBe(415);
	});

	test('there is nothing to read', async () => {
		const token = await lrsToken(sandbox);
		const response = await fetch(`${sandbox.url}${LRS_STATEMENTS_PATH}?limit=1`, {
			headers: { ...DOCUMENTED_HEADERS, Authorization: `Bearer ${token}` },
		});
		expect(response.status).toBe(405);
	});
});

describe('the budget: 10 requests per 10 seconds per organization', () => {
	test('the 11th request within 10 s gets 429 with Retry-After, and nothing is stored by it', async () => {
		const token = await lrsToken(sandbox);
		for (let n = 0; n < 10; n++) {
			const answer = await send(
				sandbox,
				statement({ result: { score: { scaled: n / 10 } } }),
				token,
			);
			expect(answer.status).toBe(200);
			clock.advance(500);
		}
		const refused = await send(sandbox, statement({ result: { score: { scaled: 1 } } }), token);

		expect(refused.status).toBe(429);
		// The first request leaves the window 10 s after it was granted: 5 s from now.
		expect(refused.headers.get('retry-after')).toBe('5');
		expect(sandbox.state().lrs.statements).toHaveLength(10);

		clock.advance(5_000);
		expect(
			(await send(sandbox, statement({ result: { score: { scaled: 1 } } }), token)).status,
		).toBe(200);
	});

	test('evenly spaced requests a little over a second apart are never refused', async () => {
		const token = await lrsToken(sandbox);
		for (let n = 0; n < 30; n++) {
			const answer = await send(
				sandbox,
				statement({ result: { score: { scaled: n / 30 } } }),
				token,
			);
			expect(answer.status).toBe(200);
			clock.advance(1_001);
		}
	});

	test('the budget can be changed or turned off', async () => {
		sandbox.configure({ lrsRatePer10Sec: 2 });
		const token = await lrsToken(sandbox);
		const statuses = [];
		for (let n = 0; n < 3; n++) {
			statuses.push(
				(await send(sandbox, statement({ result: { score: { scaled: n / 3 } } }), token)).status,
			);
		}
		expect(statuses).toEqual([200, 200, 429]);
		sandbox.configure({ lrsRatePer10Sec: 0 });
		expect((await send(sandbox, statement(), token)).status).toBe(200);
	});
});
