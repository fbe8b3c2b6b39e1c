/**
 * Ids and keys: text that is not well-formed Unicode never becomes one, and a 409 is read for
 * what it is — our own earlier attempt, the same event again, or other content under its key.
 * Real loopback servers playing the platform, the push endpoint and a record store, driven
 * through n8n's execution engine.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Loopback, Received } from '../../harness/loopback';
import { json } from '../../harness/loopback';
import { statementIdFor } from '../../nodes/XApi/transport/statementIds';
import { runNode, XAPI_NODE } from '../helpers/workflows';
import {
	accepted,
	apiCalls,
	hostilePlatform,
	platformCredentials,
	realNetwork,
	serve,
	upsert,
} from './platform';

realNetwork();
jest.setTimeout(30_000);

const HALF = /holds half of a character \(a lone UTF-16 surrogate/;

describe('1. text that is not well-formed Unicode never becomes an id or a key', () => {
	const lms = (parameters: INodeParameters) => ({ parameters, items: [{ id: 'c-\ud800' }] });

	test.each([
		['Course → Create or Update, External ID', lms(upsert()), /item 0: External ID: /],
		[
			'Course → Create or Update, JSON input',
			lms({
				resource: 'course',
				operation: 'upsert',
				inputMode: 'json',
				course: '={{ { external_id: $json.id, name: "N", url: "https://learn.test/c" } }}',
			}),
			/Invalid course on item 0 .*external_id: /,
		],
		[
			'Course → Create or Update, Channel IDs',
			{
				parameters: upsert({}),
				items: [{ id: 'c-1', channels: ['ch-1', 'ch-\udc00'] }],
				extra: { additionalFields: { channelIds: '={{ $json.channels }}' } },
			},
			/item 0: Additional Fields → Channel IDs: /,
		],
		[
			'Course → Get',
			lms({ resource: 'course', operation: 'get', externalId: '={{ $json.id }}' }),
			/item 0: Course: /,
		],
		[
			'Course → Archive',
			lms({ resource: 'course', operation: 'archive', externalId: '={{ $json.id }}' }),
			/item 0: Course: /,
		],
		[
			'Assignment → Assign, the course',
			lms({
				resource: 'assignment',
				operation: 'assign',
				email: 'ada@example.com',
				externalId: '={{ $json.id }}',
			}),
			/item 0: Course: /,
		],
		[
			'Transaction → Get',
			lms({ resource: 'transaction', operation: 'get', transactionId: '={{ $json.id }}' }),
			/item 0: Transaction ID: /,
		],
	])('%s: refused by name, nothing sent', async (_, run, field) => {
		const platform = await hostilePlatform((__, res) => json(res, 202, accepted('tx')));
		const extra = 'extra' in run ? run.extra : {};

		const result = await runNode({
			credentials: platformCredentials(platform),
			items: run.items,
			parameters: { ...run.parameters, ...extra },
		});

		expect(result.error?.message).toMatch(field);
		expect(result.error?.message).toMatch(HALF);
		expect(apiCalls(platform)).toHaveLength(0);
	});

	test('a whole emoji in an external id is well-formed, and sent', async () => {
		const platform = await hostilePlatform((__, res) => json(res, 202, accepted('tx')));

		const result = await runNode({
			credentials: platformCredentials(platform),
			items: [{ id: 'c-\ud83d\ude00' }],
			parameters: upsert({ waitForCompletion: false }),
		});

		expect(result.error).toBeUndefined();
		expect(JSON.parse(apiCalls(platform)[0].body).external_id).toBe('c-\ud83d\ude00');
	});

	test('idempotency keys: the three lone surrogates fail by name, U+FFFD is its own event', async () => {
		const store = await pushStore();
		const keys = ['evt-\ud800', 'evt-\udbff', 'evt-\udc00', 'evt-\ufffd'];

		const run = await send(
			store,
			keys.map((key) => ({ statement: statement(), key })),
			true,
		);

		for (const index of [0, 1, 2]) {
			expect(String(run.items[index].json.error)).toMatch(
				new RegExp(`^Invalid input on item ${index}: Idempotency Key: ${HALF.source}`),
			);
		}
		expect(run.items[3].json).toMatchObject({
			statementId: statementIdFor('evt-\ufffd'),
			recorded: 'recorded',
		});
		expect(posts(store).map((r) => JSON.parse(r.body).id)).toEqual([statementIdFor('evt-\ufffd')]);
	});

	test('without Continue On Fail, one such key stops the run before anything is sent', async () => {
		const store = await pushStore();

		const run = await send(store, [
			{ statement: statement(), key: 'evt-ok' },
			{ statement: statement(), key: 'evt-\udc00' },
		]);

		expect(run.error?.message).toMatch(/^Invalid input on item 1: Idempotency Key: /);
		expect(posts(store)).toHaveLength(0);
	});

	test('a JSON statement holding a lone surrogate (an account name) is refused by its path', async () => {
		const store = await readableStore();
		const broken = {
			...statement(),
			actor: { account: { homePage: 'https://learn.test', name: 'ada-\ud800' } },
		};

		const run = await send(store, [{ statement: broken }]);

		expect(run.error?.message).toMatch(/^Invalid statement on item 0: actor\.account\.name: /);
		expect(run.error?.message).toMatch(HALF);
		expect(store.received).toHaveLength(0);
	});

	test('an xAPI Get Many filter holding a lone surrogate is refused by name', async () => {
		const store = await readableStore();

		const run = await runNode({
			type: XAPI_NODE,
			credentials: { xApiLrsApi: basic(store) },
			parameters: {
				resource: 'statement',
				operation: 'getMany',
				returnAll: true,
				filters: { activity: 'https://learn.test/\udbff' },
			},
		});

		expect(run.error?.message).toMatch(/^Invalid input on item 0: filters\.activity: /);
		expect(run.error?.message).toMatch(HALF);
		expect(store.received).toHaveLength(0);
	});
});

describe('2. a 409 is told apart: our own attempt, the same event again, other content', () => {
	test('the push endpoint: the first answer is lost, the retry gets 409 — stored, not "other content"', async () => {
		const store = await pushStore({ loseFirstAnswer: true });

		const run = await send(store, [
			{ statement: statement(1), key: 'order-1' },
			{ statement: statement(2) },
		]);

		expect(run.error).toBeUndefined();
		for (const item of run.items) {
			expect(item.json.recorded).toBe('already recorded');
			expect(item.json.note).toBeUndefined();
		}
		expect(posts(store).map((r) => r.status)).toEqual([0, 409, 0, 409]);
		expect(store.statements.size).toBe(2);
	});

	test('the push endpoint answering 409 to every repeat: the same event reads "already recorded", other content says so', async () => {
		const store = await pushStore();
		const client = `push-${Date.now()}`;

		const first = await send(store, [{ statement: statement(1), key: 'order-2' }], false, client);
		const again = await send(store, [{ statement: statement(1), key: 'order-2' }], false, client);
		const other = await send(store, [{ statement: statement(9), key: 'order-2' }], false, client);

		expect(first.items[0].json.recorded).toBe('recorded');
		expect(again.items[0].json).toMatchObject({
			recorded: 'already recorded',
			alreadyStored: true,
		});
		expect(again.items[0].json.note).toBeUndefined();
		expect(other.items[0].json.recorded).toBe('already recorded with other content');
		expect(String(other.items[0].json.note)).toMatch(/this statement was not stored/);
		expect(posts(store).map((r) => r.status)).toEqual([200, 409, 409]);
	});

	test('the push endpoint, with nothing remembered (another process): a 409 to a first attempt is not called "other content"', async () => {
		const store = await pushStore();
		store.statements.set(statementIdFor('order-3'), {
			...statement(1),
			id: statementIdFor('order-3'),
		});

		const run = await send(store, [{ statement: statement(1), key: 'order-3' }]);

		expect(run.items[0].json).toMatchObject({ recorded: 'already recorded', alreadyStored: true });
		expect(String(run.items[0].json.note)).toMatch(/cannot be read to compare it/);
	});

	test('a readable store answering 409 to every repeat: what it holds is read and compared', async () => {
		const store = await readableStore();

		const first = await send(store, [{ statement: statement(1), key: 'order-4' }]);
		const again = await send(store, [{ statement: statement(1), key: 'order-4' }]);
		const other = await send(store, [{ statement: statement(9), key: 'order-4' }]);

		expect(first.items[0].json.recorded).toBe('recorded');
		expect(again.items[0].json.recorded).toBe('already recorded');
		expect(again.items[0].json.note).toBeUndefined();
		expect(other.items[0].json.recorded).toBe('already recorded with other content');
		expect(store.received.map((r) => r.method)).toEqual(['POST', 'POST', 'GET', 'POST', 'GET']);
	});
});

const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed';

function statement(n = 1): IDataObject {
	return {
		actor: { objectType: 'Agent', name: 'Ada', mbox: 'mailto:ada@example.com' },
		verb: { id: COMPLETED, display: { 'en-US': 'completed' } },
		object: { objectType: 'Activity', id: `https://learn.test/cards/${n}` },
	};
}

type Store = Loopback & { statements: Map<string, IDataObject>; push: boolean };

/** What a store answered to each statement POST (0: no answer, the connection was dropped). */
function posts(store: Store): Array<Received & { status: number }> {
	return store.received
		.filter((r) => r.method === 'POST' && r.url.endsWith('/statements'))
		.map((r) => r as Received & { status: number });
}

/**
 * A record store keeping statements by id and answering 409 to any POST of an id it holds, the
 * same statement or not. The push endpoint (OAuth2, no reads) can lose its first answer to each
 * statement: stored, then the connection dropped.
 */
async function recordStore({
	push,
	loseFirstAnswer = false,
}: {
	push: boolean;
	loseFirstAnswer?: boolean;
}) {
	const statements = new Map<string, IDataObject>();
	const server = await serve((req, res) => {
		const request = req as Received & { status: number };
		if (push && req.url.endsWith('/oauth2/token')) {
			return json(res, 200, { access_token: `push-token-${Date.now()}`, expires_in: 3600 });
		}
		if (req.method === 'GET' && !push) {
			const id = new URL(req.url, 'http://x').searchParams.get('statementId') ?? '';
			const found = statements.get(id);
			return found
				? json(res, 200, { ...found, stored: '2026-01-01T00:00:00.000Z' })
				: json(res, 404, {});
		}
		const sent = JSON.parse(req.body) as IDataObject;
		const id = String(sent.id);
		if (statements.has(id)) {
			request.status = 409;
			return json(res, 409, { message: `Statement ${id} already exists` });
		}
		statements.set(id, sent);
		if (loseFirstAnswer) {
			request.status = 0;
			res.socket?.destroy();
			return;
		}
		request.status = 200;
		json(res, 200, [id]);
	});
	return Object.assign(server, { statements, push });
}

const pushStore = (options: { loseFirstAnswer?: boolean } = {}) =>
	recordStore({ push: true, ...options });
const readableStore = () => recordStore({ push: false });

function basic(store: Loopback) {
	return {
		endpoint: `${store.url}/xAPI`,
		authentication: 'basic',
		username: 'lrs-key',
		password: 'lrs-password',
		requestTimeout: 1,
	};
}

async function send(
	store: Store,
	items: Array<{ statement: IDataObject; key?: string }>,
	continueOnFail = false,
	clientId = `push-${Date.now()}-${Math.random()}`,
) {
	const credentials = store.push
		? {
				endpoint: `${store.url}/xAPI`,
				authentication: 'oauth2',
				clientId,
				clientSecret: 'push-secret-value',
				scope: 'xapi:write',
				tokenUrl: '',
				accessToken: '',
				requestsPerMinute: 6000,
				requestTimeout: 1,
			}
		: basic(store);
	return await runNode({
		type: XAPI_NODE,
		credentials: { xApiLrsApi: credentials },
		items: items.map(({ statement: s, key }) => ({ statement: s, key: key ?? '' })),
		parameters: {
			resource: 'statement',
			operation: 'send',
			inputMode: 'json',
			statement: '={{ $json.statement }}',
			additionalFields: { idempotencyKey: '={{ $json.key }}' },
			options: {},
		},
		continueOnFail,
	});
}
