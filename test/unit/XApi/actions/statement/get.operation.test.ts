import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { COMPLETED, LRS_ORIGIN, STATEMENTS_PATH, asStored, resetNock, runXApi } from '../../fixtures';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const ID = '6690e6c9-3ef0-4ed3-8b37-7f3964730bee';

/** A full statement as a record store returns it: 11 top-level properties. */
function fullStatement(id = ID, n = 1): IDataObject {
	return {
		...asStored({
			id,
			actor: { objectType: 'Agent', name: `Learner ${n}`, mbox: `mailto:learner${n}@example.com` },
			verb: { id: COMPLETED, display: { 'de-DE': 'abgeschlossen', 'en-US': 'completed' } },
			object: {
				objectType: 'Activity',
				id: `https://learn.test/courses/${n}`,
				definition: {
					name: { 'en-GB': `Course ${n}` },
					type: 'http://adlnet.gov/expapi/activities/course',
				},
			},
			result: {
				score: { scaled: 0.9, raw: 90, min: 0, max: 100 },
				success: true,
				completion: true,
				duration: 'PT1H',
				extensions: { 'https://learn.test/ext/attempts': 2 },
			},
			context: { registration: '9b9c2c1e-7f0e-4c4c-9c0b-4c1b6f0b8f10', platform: 'LMS' },
			timestamp: '2024-05-01T09:00:00.000Z',
		}),
		attachments: [],
	};
}

const SIMPLIFIED = {
	statementId: ID,
	actorName: 'Learner 1',
	actorEmail: 'learner1@example.com',
	verb: 'completed',
	verbId: COMPLETED,
	activityId: 'https://learn.test/courses/1',
	activityName: 'Course 1',
	result: { scoreScaled: 0.9, success: true, completion: true, duration: 'PT1H' },
	timestamp: '2024-05-01T09:00:00.000Z',
};

describe('Statement → Get, output', () => {
	const answer = () =>
		nock(LRS_ORIGIN).get(STATEMENTS_PATH).query({ statementId: ID }).reply(200, fullStatement());

	test('without an output choice (saved workflows) the statement is returned whole', async () => {
		answer();
		const run = await runXApi({ resource: 'statement', operation: 'get', statementId: ID });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual(fullStatement());
		expect(Object.keys(run.items[0].json).length).toBeGreaterThan(10);
	});

	test('Simplified: at most 10 flat fields saying who did what, with what result and when', async () => {
		answer();
		const run = await runXApi({
			resource: 'statement',
			operation: 'get',
			statementId: ID,
			output: 'simple',
		});
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual(SIMPLIFIED);
		expect(Object.keys(run.items[0].json).length).toBeLessThanOrEqual(10);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('Select Included Fields keeps only the chosen properties, in the order chosen', async () => {
		answer();
		const run = await runXApi({
			resource: 'statement',
			operation: 'get',
			statementId: ID,
			output: 'fields',
			fields: ['verb', 'id', 'result'],
		});
		expect(run.error).toBeUndefined();
		const full = fullStatement();
		expect(run.items[0].json).toEqual({ verb: full.verb, id: ID, result: full.result });
		expect(Object.keys(run.items[0].json)).toEqual(['verb', 'id', 'result']);
	});

	test('Select Included Fields with an expression that chooses no field fails the item before asking the store', async () => {
		const store = answer();
		const run = await runXApi({
			resource: 'statement',
			operation: 'get',
			statementId: ID,
			output: 'fields',
			fields: '={{ [] }}',
		});
		expect(run.error?.message).toContain('Fields: choose at least one field');
		expect(store.isDone()).toBe(false);
	});

	test('a field name the statement format does not have is refused by name', async () => {
		answer();
		const run = await runXApi({
			resource: 'statement',
			operation: 'get',
			statementId: ID,
			output: 'fields',
			fields: '={{ "id, score" }}',
		});
		expect(run.error?.message).toContain('unknown field "score"');
	});
});

describe('Statement → Get Many, output', () => {
	const ids = [1, 2, 3].map((n) => `00000000-0000-4000-8000-00000000000${n}`);

	beforeEach(() => {
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query(true)
			.reply(200, { statements: ids.map((id, i) => fullStatement(id, i + 1)), more: '' });
	});

	test('Simplified shapes every statement and keeps the pairing', async () => {
		const run = await runXApi({
			resource: 'statement',
			operation: 'getMany',
			returnAll: true,
			output: 'simple',
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.statementId)).toEqual(ids);
		expect(run.items.map((item) => item.json.activityName)).toEqual([
			'Course 1',
			'Course 2',
			'Course 3',
		]);
		for (const item of run.items) {
			expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
			expect(item.json).not.toHaveProperty('actor');
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	test('Select Included Fields from an expression (a comma-separated list) keeps those fields', async () => {
		const run = await runXApi({
			resource: 'statement',
			operation: 'getMany',
			returnAll: true,
			output: 'fields',
			fields: '={{ "id, stored" }}',
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json)).toEqual(
			ids.map((id) => ({ id, stored: '2024-05-01T10:00:00.000Z' })),
		);
	});

	test('Raw returns the statements as stored', async () => {
		const run = await runXApi({
			resource: 'statement',
			operation: 'getMany',
			returnAll: true,
			output: 'raw',
		});
		expect(run.items.map((item) => item.json)).toEqual(
			ids.map((id, i) => fullStatement(id, i + 1)),
		);
	});
});

describe('a simplified statement leaves out what the statement does not have', () => {
	test('no result, no activity name, an account instead of a mailbox', async () => {
		nock(LRS_ORIGIN)
			.get(STATEMENTS_PATH)
			.query({ statementId: ID })
			.reply(200, {
				id: ID,
				actor: { account: { homePage: 'https://lms.test', name: 'u-7' } },
				verb: { id: 'http://adlnet.gov/expapi/verbs/attempted' },
				object: { id: 'https://learn.test/quiz' },
				timestamp: '2024-05-01T09:00:00.000Z',
				stored: '2024-05-01T09:00:01.000Z',
			});
		const run = await runXApi({
			resource: 'statement',
			operation: 'get',
			statementId: ID,
			output: 'simple',
		});
		expect(run.items[0].json).toEqual({
			statementId: ID,
			verb: 'attempted',
			verbId: 'http://adlnet.gov/expapi/verbs/attempted',
			activityId: 'https://learn.test/quiz',
			timestamp: '2024-05-01T09:00:00.000Z',
		});
	});
});
