import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	LRS_ORIGIN,
	STATEMENTS_PATH,
	asStored,
	resetNock,
	sendJson,
	statement,
	statementsIn,
	storedIdsOf,
} from '../fixtures';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

type Answer = 'reset' | ((body: IDataObject[]) => [number, unknown]);

/** Records the statements POSTed in a scripted sequence of answers ('reset' drops the connection). */
function postsAnswering(...answers: Answer[]) {
	const bodies: IDataObject[][] = [];
	for (const answer of answers) {
		const interceptor = nock(LRS_ORIGIN).post(STATEMENTS_PATH, (body) => {
			bodies.push(statementsIn(body));
			return true;
		});
		if (answer === 'reset')
			interceptor.replyWithError(
				Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
			);
		else interceptor.reply((_uri, body) => answer(statementsIn(body)));
	}
	return bodies;
}

const ok = (body: IDataObject[]): [number, unknown] => [200, body.map((s) => s.id)];
const status =
	(code: number, message = 'failed') =>
	(): [number, unknown] => [code, { message }];

test('a 500 is retried with the very same statement id', async () => {
	const bodies = postsAnswering(status(500), ok);

	const run = await sendJson([{ statement: statement() }]);

	expect(run.error).toBeUndefined();
	expect(bodies).toHaveLength(2);
	expect(bodies[1]).toEqual(bodies[0]);
	expect(run.items[0].json.statementId).toBe(bodies[0][0].id);
});

test('a dropped connection is retried with the very same statement id', async () => {
	const bodies = postsAnswering('reset', ok);

	const run = await sendJson([
		{ statement: statement() },
		{ statement: statement('https://learn.test/2') },
	]);

	expect(run.error).toBeUndefined();
	expect(bodies).toHaveLength(2);
	expect(bodies[1]).toEqual(bodies[0]);
	expect(run.items.map((item) => item.json.statementId)).toEqual(bodies[0].map((s) => s.id));
});

test('a 429 is waited out (Retry-After) and the same statement is sent again', async () => {
	const bodies: IDataObject[][] = [];
	nock(LRS_ORIGIN)
		.post(STATEMENTS_PATH, (body) => (bodies.push(statementsIn(body)), true))
		.reply(429, { message: 'slow down' }, { 'Retry-After': '0' })
		.post(STATEMENTS_PATH, (body) => (bodies.push(statementsIn(body)), true))
		.reply(200, (_uri, body) => storedIdsOf(body));

	const run = await sendJson([{ statement: statement() }]);

	expect(run.error).toBeUndefined();
	expect(bodies).toHaveLength(2);
	expect(bodies[1]).toEqual(bodies[0]);
});

test('a 409 on a retry is success when the store holds the same statement', async () => {
	const bodies = postsAnswering(status(503), status(409, 'Conflict'));
	const lookups: string[] = [];
	nock(LRS_ORIGIN)
		.get(STATEMENTS_PATH)
		.query((query) => (lookups.push(String(query.statementId)), true))
		// As stores return it: stored, authority, version and a timestamp added, the verb display dropped.
		.reply(200, () => {
			const sent = bodies[0][0] as IDataObject & { verb: IDataObject };
			return asStored({
				...sent,
				verb: { id: sent.verb.id },
				actor: { objectType: 'Agent', ...(sent.actor as IDataObject) },
			});
		});

	const run = await sendJson([{ statement: statement() }]);

	expect(run.error).toBeUndefined();
	expect(lookups).toEqual([bodies[0][0].id]);
	expect(run.items[0].json).toMatchObject({ statementId: bodies[0][0].id, alreadyStored: true });
});

test('a 409 on a retry is an error when the store holds another statement under that id', async () => {
	const bodies = postsAnswering(status(503), status(409, 'Conflict'));
	nock(LRS_ORIGIN)
		.get(STATEMENTS_PATH)
		.query(true)
		.reply(200, () => asStored({ ...bodies[0][0], object: { id: 'https://learn.test/other' } }));

	const run = await sendJson([{ statement: statement() }]);

	expect(run.error?.message).toBe(
		`A different statement already has id ${bodies[0][0].id} (item 0)`,
	);
});

test("a 409 on the first attempt is read back: another statement under the id is the item's error", async () => {
	const id = '6690e6c9-3ef0-4ed3-8b37-7f3964730bee';
	postsAnswering(status(409, 'Conflict'));
	const lookups: string[] = [];
	nock(LRS_ORIGIN)
		.get(STATEMENTS_PATH)
		.query((query) => (lookups.push(String(query.statementId)), true))
		.reply(200, () => asStored({ id, ...statement('https://learn.test/other') }));

	const run = await sendJson([{ statement: { id, ...statement() } }], { continueOnFail: true });

	expect(run.error).toBeUndefined();
	expect(lookups).toEqual([id]);
	expect(run.items[0].json.error).toBe(`A different statement already has id ${id} (item 0)`);
});

test('a 409 on the first attempt is read back: the same statement is already recorded', async () => {
	const id = '6690e6c9-3ef0-4ed3-8b37-7f3964730bef';
	postsAnswering(status(409, 'Conflict'));
	nock(LRS_ORIGIN)
		.get(STATEMENTS_PATH)
		.query(true)
		.reply(200, () => asStored({ id, ...statement() }));

	const run = await sendJson([{ statement: { id, ...statement() } }]);

	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ statementId: id, recorded: 'already recorded' });
});

test("a 400 is not retried: one bad statement is its item's error", async () => {
	const bodies = postsAnswering(status(400, 'Invalid statement: objectType'));

	const run = await sendJson([{ statement: statement() }]);

	expect(bodies).toHaveLength(1);
	expect(run.error?.message).toMatch(
		/^Invalid statement: objectType \(HTTP 400 while sending the statement of item 0 \(id [0-9a-f-]{36}\)\)$/,
	);
});
