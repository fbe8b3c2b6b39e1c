import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { recordPosts, resetNock, sendJson, statement } from '../fixtures';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const items = (count: number, bad: number[] = []) =>
	Array.from({ length: count }, (_, i) => ({
		statement: statement(`https://learn.test/cards/${bad.includes(i) ? 'bad-' : ''}${i}`),
	}));

const activityOf = (s: IDataObject) => (s.object as { id: string }).id;
const hasBad = (body: IDataObject[]) => body.some((s) => activityOf(s).includes('/bad-'));
const ids = (body: IDataObject[]) => body.map((s) => s.id);

test('batch size 3 sends 7 items as batches of 3, 3 and 1, in item order (the last one as an object)', async () => {
	const { bodies, raw } = recordPosts();

	const run = await sendJson(items(7), { options: { batchSize: 3 } });

	expect(run.error).toBeUndefined();
	expect(bodies.map((body) => body.length)).toEqual([3, 3, 1]);
	expect(raw.map((body) => Array.isArray(body))).toEqual([true, true, false]);
	expect(bodies.flat().map(activityOf)).toEqual(items(7).map((item) => item.statement.object.id));
	expect(run.items.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: 7 }, (_, item) => ({ item })),
	);
	expect(run.items.map((item) => item.json.statementId)).toEqual(bodies.flat().map((s) => s.id));
});

test('by default 50 statements go per request', async () => {
	const { bodies } = recordPosts();

	const run = await sendJson(items(120));

	expect(run.error).toBeUndefined();
	expect(bodies.map((body) => body.length)).toEqual([50, 50, 20]);
});

test('a batch size above 500 is refused before sending', async () => {
	const { bodies } = recordPosts();

	const run = await sendJson(items(2), { options: { batchSize: 501 } });

	expect(bodies).toHaveLength(0);
	expect(run.error?.message).toBe('Invalid options on item 0: batchSize: must be at most 500');
});

test('a 413 splits the batch in halves until each part fits', async () => {
	const { bodies, raw } = recordPosts((body) =>
		body.length > 2 ? [413, { message: 'Payload Too Large' }] : [200, ids(body)],
	);

	const run = await sendJson(items(5), { options: { batchSize: 5 } });

	expect(run.error).toBeUndefined();
	expect(bodies.map((body) => body.length)).toEqual([5, 3, 2, 1, 2]);
	expect(raw.map((body) => Array.isArray(body))).toEqual([true, true, true, false, true]);
	expect(run.items).toHaveLength(5);
	expect(run.items.map((item) => item.json.statementId)).toEqual(bodies[0].map((s) => s.id));
});

test("a statement too large on its own is its item's error", async () => {
	recordPosts(() => [413, { message: 'Payload Too Large' }]);

	const run = await sendJson(items(1), { continueOnFail: true });

	expect(run.items[0].json.error).toMatch(
		/^Payload Too Large \(HTTP 413 while sending the statement of item 0 /,
	);
	expect((run.items[0].json.details as { description: string }).description).toMatch(
		/larger than the record store accepts/,
	);
});

test('a 400 on a batch is narrowed to the bad statement; the others are stored (Continue On Fail)', async () => {
	const stored: IDataObject[] = [];
	const { bodies } = recordPosts((body) => {
		if (hasBad(body)) return [400, { message: 'bad statement' }];
		stored.push(...body);
		return [200, ids(body)];
	});

	const run = await sendJson(items(6, [3]), { options: { batchSize: 6 }, continueOnFail: true });

	expect(run.error).toBeUndefined();
	expect(stored.map(activityOf).sort()).toEqual(
		[0, 1, 2, 4, 5].map((i) => `https://learn.test/cards/${i}`).sort(),
	);
	expect(bodies.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(6)));
	expect(run.items).toHaveLength(6);
	expect(run.items[3].json.error).toMatch(
		/^bad statement \(HTTP 400 while sending the statement of item 3 \(id .+\)\)$/,
	);
	expect(run.items[3].pairedItem).toEqual({ item: 3 });
	for (const i of [0, 1, 2, 4, 5])
		expect(run.items[i].json.statementId).toEqual(expect.any(String));
});

test('without Continue On Fail the good statements are stored, then the node fails naming the bad items', async () => {
	const stored: IDataObject[] = [];
	recordPosts((body) => {
		if (hasBad(body)) return [400, { message: 'bad statement' }];
		stored.push(...body);
		return [200, ids(body)];
	});

	const run = await sendJson(items(8, [2, 6]), { options: { batchSize: 4 } });

	expect(stored).toHaveLength(6);
	expect(run.error?.message).toMatch(
		/^bad statement \(HTTP 400 while sending the statement of item 2 /,
	);
	const description = (run.error as { description?: string }).description ?? '';
	expect(description).toContain('6 of 8 statements were stored.');
	expect(description).toMatch(
		/• item 6: bad statement \(HTTP 400 while sending the statement of item 6 /,
	);
});

test("a failure that is not one statement's fault stops the run; later batches are not sent", async () => {
	const { bodies } = recordPosts((_body, call) =>
		call === 0 ? [200, ids(_body)] : [403, { message: 'forbidden' }],
	);

	const run = await sendJson(items(7), { options: { batchSize: 3 } });

	expect(bodies).toHaveLength(2);
	expect(run.error?.message).toBe('forbidden (HTTP 403 while sending 3 statements (items 3 to 5))');
	const description = (run.error as { description?: string }).description ?? '';
	expect(description).toContain('3 of 7 statements were stored.');
	expect(description).toContain('Item 6 was not sent after this failure.');
});

test('two items with the same statement id never share a batch', async () => {
	const id = '6690e6c9-3ef0-4ed3-8b37-7f3964730bee';
	const { bodies } = recordPosts();

	const run = await sendJson(
		[
			{ statement: { id, ...statement() } },
			{ statement: statement('https://learn.test/x') },
			{ statement: { id, ...statement('https://learn.test/other') } },
		],
		{ options: { batchSize: 10 } },
	);

	expect(run.error).toBeUndefined();
	expect(bodies.map((body) => body.length)).toEqual([2, 1]);
});

test('the same statement twice in one run is sent once; the second item says it was already recorded', async () => {
	const id = '6690e6c9-3ef0-4ed3-8b37-7f3964730bee';
	const { bodies } = recordPosts();

	const run = await sendJson(
		[
			{ statement: { id, ...statement() } },
			{ statement: statement('https://learn.test/x') },
			{ statement: { id, ...statement() } },
		],
		{ options: { batchSize: 10 } },
	);

	expect(run.error).toBeUndefined();
	expect(bodies.map((body) => body.length)).toEqual([2]);
	expect(run.items.map((item) => item.json.recorded)).toEqual([
		'recorded',
		'recorded',
		'already recorded',
	]);
	expect(run.items[2].json).toMatchObject({ statementId: id, alreadyStored: true });
});
