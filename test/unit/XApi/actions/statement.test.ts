import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	COMPLETED,
	ENDPOINT_PATH,
	LRS_ORIGIN,
	STATEMENTS_PATH,
	UUID_V4,
	asStored,
	recordPosts,
	resetNock,
	runXApi,
	statement,
} from '../fixtures';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const ID = '6690e6c9-3ef0-4ed3-8b37-7f3964730bee';
const stored = (n: number) =>
	asStored({
		id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		...statement(`https://learn.test/${n}`),
	});

describe('get', () => {
	test('reads one statement by statementId', async () => {
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query({ statementId: ID })
			.reply(200, { id: ID, ...statement() });

		const run = await runXApi({ resource: 'statement', operation: 'get', statementId: ID });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toEqual({ id: ID, ...statement() });
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('reads a voided statement by voidedStatementId', async () => {
		const lrs = nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query({ voidedStatementId: ID })
			.reply(200, { id: ID, ...statement() });

		const run = await runXApi({
			resource: 'statement',
			operation: 'get',
			statementId: ID,
			options: { voided: true },
		});

		expect(run.error).toBeUndefined();
		expect(lrs.isDone()).toBe(true);
	});

	test('a statement id that is not a UUID is refused before asking', async () => {
		const run = await runXApi({ resource: 'statement', operation: 'get', statementId: 'abc' });

		expect(run.error?.message).toMatch(
			/^Invalid input on item 0: statementId: must be a statement ID/,
		);
	});

	test('a missing statement is a 404 error naming it', async () => {
		nock(LRS_ORIGIN).get(STATEMENTS_PATH).query(true).reply(404, { message: 'No statement' });

		const run = await runXApi({ resource: 'statement', operation: 'get', statementId: ID });

		expect(run.error?.message).toBe(`No statement (HTTP 404 while getting statement ${ID})`);
	});
});

describe('getMany', () => {
	test('follows a relative and then an absolute more link until the end', async () => {
		const pages: IDataObject[] = [];
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query((query) => (pages.push(query), query.limit === '100' && !query.more))
			.reply(200, {
				statements: [stored(1), stored(2)],
				more: `${ENDPOINT_PATH}/statements?more=page2`,
			})
			.get(STATEMENTS_PATH)
			.query({ more: 'page2' })
			.reply(200, {
				statements: [stored(3)],
				more: `${LRS_ORIGIN}${ENDPOINT_PATH}/statements?more=page3`,
			})
			.get(STATEMENTS_PATH)
			.query({ more: 'page3' })
			.reply(200, { statements: [stored(4)], more: '' });

		const run = await runXApi({ resource: 'statement', operation: 'getMany', returnAll: true });

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => (item.json.object as IDataObject).id)).toEqual(
			[1, 2, 3, 4].map((n) => `https://learn.test/${n}`),
		);
		expect(run.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(nock.isDone()).toBe(true);
	});

	test('stops at the limit without reading further pages', async () => {
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query({ limit: '3' })
			.reply(200, { statements: [stored(1), stored(2)], more: '/data/xAPI/statements?more=p2' })
			.get(STATEMENTS_PATH)
			.query({ more: 'p2' })
			.reply(200, { statements: [stored(3), stored(4)], more: '/data/xAPI/statements?more=p3' });

		const run = await runXApi({
			resource: 'statement',
			operation: 'getMany',
			returnAll: false,
			limit: 3,
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(nock.isDone()).toBe(true);
	});

	test('sends the filters as xAPI query parameters', async () => {
		const seen: IDataObject[] = [];
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query((query) => (seen.push(query), true))
			.reply(200, { statements: [], more: '' });

		const run = await runXApi({
			resource: 'statement',
			operation: 'getMany',
			returnAll: false,
			limit: 10,
			filters: {
				agentEmail: 'ada@example.com',
				verb: COMPLETED,
				activity: 'https://learn.test/cards/1',
				registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
				since: '2024-05-01T00:00:00Z',
				until: '2024-06-01T00:00:00+02:00',
				ascending: true,
			},
		});

		expect(run.error).toBeUndefined();
		expect(seen).toEqual([
			{
				agent: '{"mbox":"mailto:ada@example.com"}',
				verb: COMPLETED,
				activity: 'https://learn.test/cards/1',
				registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
				since: '2024-05-01T00:00:00Z',
				until: '2024-06-01T00:00:00+02:00',
				ascending: 'true',
				limit: '10',
			},
		]);
	});

	test('a more link to another host is not followed', async () => {
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query(true)
			.reply(200, { statements: [stored(1)], more: 'https://elsewhere.test/statements?more=2' });

		const run = await runXApi({ resource: 'statement', operation: 'getMany', returnAll: true });

		expect(run.error?.message).toBe(
			'The record store sent a "more" link that is not on its own host: https://elsewhere.test/statements?more=2',
		);
	});
});

describe('void', () => {
	test('posts a voiding statement (one JSON object) with its own id, the actor, the voided verb and a StatementRef', async () => {
		const { bodies, raw } = recordPosts();

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
				id: expect.stringMatching(UUID_V4),
				actor: { name: 'Admin', mbox: 'mailto:admin@example.com' },
				verb: { id: 'http://adlnet.gov/expapi/verbs/voided', display: { 'en-US': 'voided' } },
				object: { objectType: 'StatementRef', id: ID },
			},
		]);
		expect(bodies[0][0].id).not.toBe(ID);
		expect(run.items[0].json).toMatchObject({
			statementId: bodies[0][0].id,
			voidedStatementId: ID,
		});
	});
});
