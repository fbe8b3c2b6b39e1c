/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * The xAPI node and trigger, run by n8n's execution engine against a real record store
 * (xapi-statements, in memory on loopback). Skipped when scripts/install-lrs.sh has not run.
 */
import * as fs from 'node:fs';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { lrsEntryPoint } from '../../harness/paths';
import { startLrs, type RunningLrs } from '../../harness/lrs';
import { runNode, XAPI_NODE } from '../helpers/workflows';
import { xApiTriggerPoller } from '../../harness/poll';

const haveLrs = fs.existsSync(lrsEntryPoint);
const describeWithLrs = haveLrs ? describe : describe.skip;

const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed';

let lrs: RunningLrs;
const credentials = () => ({
	xApiLrsApi: { endpoint: lrs.endpoint, authentication: 'token', token: lrs.token },
});

const statement = (n: number, email = 'ada@example.com') => ({
	actor: { name: 'Ada', mbox: `mailto:${email}` },
	verb: { id: COMPLETED, display: { 'en-US': 'completed' } },
	object: {
		objectType: 'Activity',
		id: `https://learn.test/cards/${n}`,
		definition: { name: { 'en-US': `Card ${n}` } },
	},
	result: { completion: true, duration: 'PT5M' },
});

async function send(statements: unknown[], options: INodeParameters = {}, continueOnFail = false) {
	return await runNode({
		type: XAPI_NODE,
		parameters: {
			resource: 'statement',
			operation: 'send',
			inputMode: 'json',
			statement: '={{ $json.statement }}',
			options,
		},
		items: statements.map((s) => ({ statement: s as IDataObject })),
		credentials: credentials(),
		continueOnFail,
	});
}

async function run(parameters: IDataObject, items: IDataObject[] = [{}], continueOnFail = false) {
	return await runNode({
		type: XAPI_NODE,
		parameters: { resource: 'statement', ...parameters },
		items,
		credentials: credentials(),
		continueOnFail,
	});
}

describeWithLrs('against a real record store', () => {
	beforeAll(async () => {
		lrs = await startLrs({ requiredAuthorization: 'Basic ZTJlLWxycy10b2tlbg==' });
	}, 60_000);
	afterAll(async () => {
		await lrs?.stop();
	});

	test('sends a batch with the token and version header, and reads the statements back', async () => {
		const sent = await send([statement(1), statement(2), statement(3)], { batchSize: 2 });

		expect(sent.error).toBeUndefined();
		const posts = lrs.requests.filter((r) => r.method === 'POST');
		// Two statements as an array, the last one alone as the statement object itself.
		const bodies = posts.slice(-2).map((r) => JSON.parse(r.body));
		expect(bodies.map((body) => (Array.isArray(body) ? body.length : 'object'))).toEqual([
			2,
			'object',
		]);
		expect(posts.every((r) => r.headers['x-experience-api-version'] === '1.0.3')).toBe(true);

		const id = sent.items[1].json.statementId as string;
		const got = await run({ operation: 'get', statementId: id });
		expect(got.error).toBeUndefined();
		expect(got.items[0].json).toMatchObject({ id, object: { id: 'https://learn.test/cards/2' } });
	});

	test('the store accepts a statement built from a full form', async () => {
		const sent = await run({
			operation: 'send',
			inputMode: 'fields',
			actorName: 'Ada Lovelace',
			actorEmail: 'ada@example.com',
			verb: 'http://adlnet.gov/expapi/verbs/passed',
			activityId: 'https://learn.test/cards/7',
			activityType: 'http://adlnet.gov/expapi/activities/lesson',
			activityName: 'Lesson 7',
			additionalFields: {
				activityDescription: 'Seven',
				eclId: 'ecl-7',
				scoreScaled: 0.9,
				success: true,
				completion: true,
				duration: 'PT12M30.5S',
				registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
				categories: {
					category: [{ id: 'https://learn.test/skills/ai', name: 'AI', description: 'Skill' }],
				},
				instructorName: 'Grace',
				instructorHomePage: 'https://lms.test',
				instructorAccountName: 'grace',
				timestamp: '2024-05-01T09:30:00Z',
			},
		});

		expect(sent.error).toBeUndefined();
		const got = await run({ operation: 'get', statementId: sent.items[0].json.statementId });
		expect(got.items[0].json).toMatchObject({
			object: { id: 'https://learn.test/cards/7?ecl_id=ecl-7' },
			result: { score: { scaled: 0.9 }, success: true },
			context: {
				instructor: { name: 'Grace', account: { homePage: 'https://lms.test', name: 'grace' } },
			},
		});
	});

	test("getMany follows the store's own more links", async () => {
		// The store's own more links drop an `agent` filter ("agent=[object Object]"), so filter by registration.
		const registration = 'c7e5f4d3-7a03-4b2d-9e4c-4b6f7a8b9cad';
		const cards = Array.from({ length: 130 }, (_, i) => 100 + i);
		const sent = await send(cards.map((n) => ({ ...statement(n), context: { registration } })));
		expect(sent.error).toBeUndefined();
		const before = lrs.requests.length;

		const listed = await run({
			operation: 'getMany',
			returnAll: true,
			filters: { registration, ascending: true },
		});

		expect(listed.error).toBeUndefined();
		expect(listed.items.map((i) => (i.json.object as IDataObject).id)).toEqual(
			cards.map((n) => `https://learn.test/cards/${n}`),
		);
		const gets = lrs.requests.slice(before).filter((r) => r.method === 'GET');
		// One page of 100, then the rest through the link the store sent.
		expect(gets).toHaveLength(2);
		expect(gets[1].url).not.toBe(gets[0].url);
	});

	test('resending the same statement is accepted; other content under a stored id is a conflict', async () => {
		const id = 'a4c2f1d0-58e1-4f0b-9c2a-2f4d5e6a7b8c';
		const first = await send([{ id, ...statement(20) }]);
		const again = await send([{ id, ...statement(20) }]);
		const other = await send([{ id, ...statement(21) }], {}, true);

		expect(first.error).toBeUndefined();
		expect(again.error).toBeUndefined();
		expect(other.items[0].json.error).toBe(`A different statement already has id ${id} (item 0)`);
	});

	test('a batch the store rejects for one statement is narrowed down: the others are stored', async () => {
		const taken = 'b5d3e2c1-69f2-4a1c-8d3b-3a5e6f7a8b9c';
		await send([{ id: taken, ...statement(30) }]);
		const before = lrs.requests.length;

		const sent = await send(
			[statement(31), statement(32), { id: taken, ...statement(33) }, statement(34)],
			{ batchSize: 10 },
			true,
		);

		const posts = lrs.requests.slice(before).filter((r) => r.method === 'POST');
		expect(posts[0].status).toBe(409);
		expect(sent.items[2].json.error).toBe(`A different statement already has id ${taken} (item 2)`);
		for (const i of [0, 1, 3]) {
			const id = sent.items[i].json.statementId as string;
			const got = await run({ operation: 'get', statementId: id });
			expect(got.items[0].json.id).toBe(id);
		}
	});

	test('void hides a statement from get; get with Voided finds it', async () => {
		const sent = await send([statement(40)]);
		const id = sent.items[0].json.statementId as string;

		const voided = await run({
			operation: 'void',
			statementId: id,
			actorName: 'Admin',
			actorEmail: 'admin@example.com',
		});
		const plain = await run({ operation: 'get', statementId: id }, [{}], true);
		const withVoided = await run({ operation: 'get', statementId: id, options: { voided: true } });

		expect(voided.error).toBeUndefined();
		expect((plain.items[0].json.details as { httpCode: string }).httpCode).toBe('404');
		expect(withVoided.items[0].json.id).toBe(id);
	});

	test('the trigger emits each new statement once', async () => {
		const poller = xApiTriggerPoller(
			{ filters: { verb: COMPLETED, agentEmail: 'trigger@example.com' } },
			credentials(),
		);
		await send([statement(50, 'trigger@example.com')]);

		expect(await poller.poll()).toBeNull();
		const sent = await send([
			statement(51, 'trigger@example.com'),
			statement(52, 'trigger@example.com'),
		]);
		const first = await poller.poll();
		const second = await poller.poll();
		const third = await send([statement(53, 'trigger@example.com')]);
		const fourth = await poller.poll();

		expect(first?.[0].map((i) => i.json.id)).toEqual(sent.items.map((i) => i.json.statementId));
		expect(second).toBeNull();
		expect(fourth?.[0].map((i) => i.json.id)).toEqual([third.items[0].json.statementId]);
	});
});
