import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { fakeLrs } from './fakeLrs';
import {
	COMPLETED,
	LRS_ORIGIN,
	STATEMENTS_PATH,
	TOKEN,
	recordPosts,
	resetNock,
	runXApi,
	sendJson,
	statement,
	statementsIn,
	storedIdsOf,
	tokenCredentials,
} from './fixtures';
import { xApiTriggerPoller } from '../../../harness/poll';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const ID = '6690e6c9-3ef0-4ed3-8b37-7f3964730bee';
const items = (count: number, bad: number[] = []) =>
	Array.from({ length: count }, (_, i) => ({
		statement: statement(`https://learn.test/cards/${bad.includes(i) ? 'bad-' : ''}${i}`),
	}));
/** Each POST body's shape: "object" for one statement sent as itself, else the array's length. */
const shapes = (raw: unknown[]) =>
	raw.map((body) => (Array.isArray(body) ? body.length : 'object'));

describe('one statement is POSTed as a JSON object, several as a JSON array', () => {
	test('Send with one item posts the statement object itself, exactly', async () => {
		const { raw } = recordPosts();
		const given = { id: ID, ...statement() };

		const run = await sendJson([{ statement: given }]);

		expect(run.error).toBeUndefined();
		expect(raw).toEqual([given]);
		expect(Array.isArray(raw[0])).toBe(false);
		expect(run.items[0].json).toMatchObject({ statementId: ID, alreadyStored: false });
	});

	test('Send with two items posts an array of both, in item order', async () => {
		const { raw } = recordPosts();
		const first = { id: ID, ...statement('https://learn.test/a') };
		const second = {
			id: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
			...statement('https://learn.test/b'),
		};

		const run = await sendJson([{ statement: first }, { statement: second }]);

		expect(run.error).toBeUndefined();
		expect(raw).toEqual([[first, second]]);
	});

	test('batch size 3 sends 7 items as arrays of 3 and 3, then the last one as an object', async () => {
		const { raw, bodies } = recordPosts();

		const run = await sendJson(items(7), { options: { batchSize: 3 } });

		expect(run.error).toBeUndefined();
		expect(shapes(raw)).toEqual([3, 3, 'object']);
		expect(raw[2]).toEqual(bodies[2][0]);
		expect(run.items.map((item) => item.json.statementId)).toEqual(bodies.flat().map((s) => s.id));
	});

	test('batch size 1 sends every statement as an object of its own', async () => {
		const { raw } = recordPosts();

		const run = await sendJson(items(3), { options: { batchSize: 1 } });

		expect(run.error).toBeUndefined();
		expect(shapes(raw)).toEqual(['object', 'object', 'object']);
	});

	test('narrowing a rejected batch sends the halves of one statement as objects', async () => {
		const { raw } = recordPosts((sent) =>
			sent.some((s) => (s.object as IDataObject).id === 'https://learn.test/cards/bad-2')
				? [400, { message: 'bad statement' }]
				: [200, sent.map((s) => s.id)],
		);

		const run = await sendJson(items(3, [2]), { options: { batchSize: 3 }, continueOnFail: true });

		// [0, 1, bad 2] is refused; its halves are [0, 1] and [bad 2], the single one as an object.
		expect(shapes(raw)).toEqual([3, 2, 'object']);
		expect((raw[2] as IDataObject).object).toEqual({
			objectType: 'Activity',
			id: 'https://learn.test/cards/bad-2',
		});
		expect(run.items[2].json.error).toMatch(/^bad statement \(HTTP 400 while sending/);
		expect(run.items[0].json.statementId).toEqual(expect.any(String));
	});

	test('a 413 on a batch of two sends each statement alone, as an object', async () => {
		const { raw } = recordPosts((sent) =>
			sent.length > 1 ? [413, { message: 'Payload Too Large' }] : [200, sent.map((s) => s.id)],
		);

		const run = await sendJson(items(2), { options: { batchSize: 2 } });

		expect(run.error).toBeUndefined();
		expect(shapes(raw)).toEqual([2, 'object', 'object']);
	});

	test('Void with one item posts the voiding statement object itself', async () => {
		const { raw } = recordPosts();

		const run = await runXApi({
			resource: 'statement',
			operation: 'void',
			statementId: ID,
			actorName: 'Admin',
			actorEmail: 'admin@example.com',
		});

		expect(run.error).toBeUndefined();
		expect(raw).toEqual([
			{
				id: run.items[0].json.statementId,
				actor: { name: 'Admin', mbox: 'mailto:admin@example.com' },
				verb: { id: 'http://adlnet.gov/expapi/verbs/voided', display: { 'en-US': 'voided' } },
				object: { objectType: 'StatementRef', id: ID },
			},
		]);
	});

	test('Void with two items posts an array of the two voiding statements', async () => {
		const { raw } = recordPosts();
		const other = '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

		const run = await runXApi(
			{
				resource: 'statement',
				operation: 'void',
				statementId: '={{ $json.id }}',
				actorName: 'Admin',
				actorEmail: 'admin@example.com',
			},
			[{ id: ID }, { id: other }],
		);

		expect(run.error).toBeUndefined();
		expect(shapes(raw)).toEqual([2]);
		expect(statementsIn(raw[0]).map((s) => (s.object as IDataObject).id)).toEqual([ID, other]);
	});
});

describe('the answer to a POST is the array of the stored ids, for one statement too', () => {
	test('the id confirmed for one statement must be the one sent', async () => {
		recordPosts(() => [200, ['0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b']]);

		const run = await sendJson([{ statement: { id: ID, ...statement() } }], {
			continueOnFail: true,
		});

		expect(run.items[0].json.error).toBe(
			`Sending the statement of item 0 (id ${ID}) failed (unexpected answer: the record store confirmed other statement ids than the ones sent)`,
		);
	});

	test('an id confirmed in upper case is the same id', async () => {
		recordPosts(() => [200, [ID.toUpperCase()]]);

		const run = await sendJson([{ statement: { id: ID, ...statement() } }]);

		expect(run.error).toBeUndefined();
		expect(run.items[0].json.statementId).toBe(ID);
	});

	test('a bare id instead of an array of ids is not taken as a confirmation', async () => {
		nock(LRS_ORIGIN)
			.post(STATEMENTS_PATH)
			.reply(200, JSON.stringify(ID), { 'Content-Type': 'application/json' });

		const run = await sendJson([{ statement: { id: ID, ...statement() } }], {
			continueOnFail: true,
		});

		expect(run.items[0].json.error).toMatch(
			/^Sending the statement of item 0 .* failed \(unexpected answer \(HTTP 200, application\/json\), not the ids of the stored statements/,
		);
	});

	test('two ids for one statement are not taken as a confirmation', async () => {
		recordPosts(() => [200, [ID, '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b']]);

		const run = await sendJson([{ statement: { id: ID, ...statement() } }], {
			continueOnFail: true,
		});

		expect(run.items[0].json.error).toMatch(/confirmed other statement ids than the ones sent/);
	});
});

describe('every request sends the documented headers', () => {
	// As the platform's document lists them for its statements endpoint, for every call.
	const documented = {
		authorization: TOKEN,
		'x-experience-api-version': '1.0.3',
		'content-type': 'application/json',
		charset: 'utf-8',
	};

	test('a POST of one statement and a POST of a batch', async () => {
		const lrs = nock(LRS_ORIGIN, { reqheaders: documented })
			.post(STATEMENTS_PATH)
			.times(2)
			.reply(200, (_uri, body) => storedIdsOf(body));

		const one = await sendJson([{ statement: statement() }]);
		const two = await sendJson(items(2));

		expect(one.error).toBeUndefined();
		expect(two.error).toBeUndefined();
		expect(lrs.isDone()).toBe(true);
	});

	test('Get and Get Many', async () => {
		const lrs = nock(LRS_ORIGIN, { reqheaders: documented })
			.get(STATEMENTS_PATH)
			.query({ statementId: ID })
			.reply(200, { id: ID, ...statement() })
			.get(STATEMENTS_PATH)
			.query(true)
			.reply(200, { statements: [], more: '' });

		const get = await runXApi({ resource: 'statement', operation: 'get', statementId: ID });
		const getMany = await runXApi({
			resource: 'statement',
			operation: 'getMany',
			returnAll: true,
		});

		expect(get.error).toBeUndefined();
		expect(getMany.error).toBeUndefined();
		expect(lrs.isDone()).toBe(true);
	});

	test("the lookup after a 409 on a repeated POST, and the trigger's polls", async () => {
		const sent: IDataObject[] = [];
		nock(LRS_ORIGIN, { reqheaders: documented })
			.post(STATEMENTS_PATH, (body) => (sent.push(body as IDataObject), true))
			.reply(503, { message: 'busy' })
			.post(STATEMENTS_PATH)
			.reply(409, { message: 'Conflict' })
			.get(STATEMENTS_PATH)
			.query(true)
			.reply(200, () => ({ ...sent[0], stored: '2024-05-01T10:00:00.000Z' }));

		const run = await sendJson([{ statement: { id: ID, ...statement() } }]);

		expect(run.error).toBeUndefined();
		expect(run.items[0].json.alreadyStored).toBe(true);
		expect(nock.isDone()).toBe(true);

		nock.cleanAll();
		const lrs = fakeLrs();
		const headers: IDataObject[] = [];
		lrs.scope.on('request', (req: { headers: IDataObject }) => headers.push(req.headers));
		const poller = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
		await poller.poll();
		await poller.poll();

		expect(headers).toHaveLength(2);
		for (const sentHeaders of headers) expect(sentHeaders).toMatchObject(documented);
	});
});
