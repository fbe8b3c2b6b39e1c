import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';

import { verbsOf } from '../../../nodes/XApiTrigger/verbs';
import { fakeLrs } from '../XApi/fakeLrs';
import { COMPLETED, resetNock, tokenCredentials } from '../XApi/fixtures';
import { xApiTriggerPoller } from '../../../harness/poll';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const PASSED = 'http://adlnet.gov/expapi/verbs/passed';
const COMPLETE = 'http://activitystrea.ms/schema/1.0/complete';
const idsOf = (result: INodeExecutionData[][] | null) =>
	result ? result[0].map((item) => item.json.id) : [];

describe.each([
	['exclusive', false],
	['inclusive', true],
])('with a store whose "since" is %s', (_name, sinceInclusive) => {
	test('the first poll emits nothing; later polls emit each new statement exactly once, oldest first', async () => {
		const lrs = fakeLrs({ sinceInclusive });
		lrs.add('2024-05-01T10:00:00.000Z');
		lrs.add('2024-05-01T10:00:01.000Z');
		lrs.add('2024-05-01T10:00:01.500Z', PASSED);
		const poller = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());

		expect(await poller.poll()).toBeNull();
		expect(await poller.poll()).toBeNull();

		const a = lrs.add('2024-05-01T10:00:05.000Z');
		const b = lrs.add('2024-05-01T10:00:05.000Z');
		lrs.add('2024-05-01T10:00:06.000Z', PASSED);
		expect(idsOf(await poller.poll())).toEqual([a, b]);

		// Arrives late with the same `stored` time as the newest one already emitted.
		const late = lrs.add('2024-05-01T10:00:05.000Z');
		const c = lrs.add('2024-05-01T10:00:07.000Z');
		expect(idsOf(await poller.poll())).toEqual([late, c]);
		expect(await poller.poll()).toBeNull();
	});
});

test('queries ascending by `stored` since the cursor minus the overlap, with the filters', async () => {
	const lrs = fakeLrs();
	lrs.add('2024-05-01T10:00:00.000Z');
	const poller = xApiTriggerPoller(
		{ filters: { verb: COMPLETED, agentEmail: 'ada@example.com' } },
		tokenCredentials(),
	);

	await poller.poll();
	await poller.poll();

	const agent = '{"mbox":"mailto:ada@example.com"}';
	expect(lrs.queries).toEqual([
		{ verb: COMPLETED, agent, limit: '100' },
		{ verb: COMPLETED, agent, ascending: 'true', limit: '100', since: '2024-05-01T09:59:58.000Z' },
	]);
});

test('the verb filter defaults to both completed IRIs, one query each', async () => {
	const lrs = fakeLrs();
	const poller = xApiTriggerPoller({}, tokenCredentials());

	await poller.poll();

	expect(lrs.queries).toEqual([
		{ verb: COMPLETED, limit: '100' },
		{ verb: COMPLETE, limit: '100' },
	]);
});

test('a backlog spread over several pages is read in full, following the more links', async () => {
	const lrs = fakeLrs();
	const poller = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
	expect(await poller.poll()).toBeNull();

	const added = Array.from({ length: 250 }, (_, i) =>
		lrs.add(new Date(Date.UTC(2024, 4, 1, 11, 0, i)).toISOString()),
	);

	expect(idsOf(await poller.poll())).toEqual(added);
	expect(await poller.poll()).toBeNull();
});

test('an empty store at activation: everything stored later is new', async () => {
	const lrs = fakeLrs();
	const poller = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());

	expect(await poller.poll()).toBeNull();
	const first = lrs.add('2020-01-01T00:00:00.000Z');
	expect(idsOf(await poller.poll())).toEqual([first]);
	expect(await poller.poll()).toBeNull();
});

test('changing the filters starts afresh from the newest matching statement', async () => {
	const lrs = fakeLrs();
	lrs.add('2024-05-01T10:00:00.000Z', PASSED);
	const poller = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
	await poller.poll();

	const changed = xApiTriggerPoller({ filters: { verb: PASSED } }, tokenCredentials());
	changed.savedStaticData = poller.savedStaticData;

	expect(await changed.poll()).toBeNull();
	const next = lrs.add('2024-05-01T10:00:10.000Z', PASSED);
	expect(idsOf(await changed.poll())).toEqual([next]);
});

test('a manual test returns the latest matching statement and leaves the cursor alone', async () => {
	const lrs = fakeLrs();
	lrs.add('2024-05-01T10:00:00.000Z');
	const latest = lrs.add('2024-05-01T10:00:02.000Z');
	const poller = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());

	expect(idsOf(await poller.poll('manual'))).toEqual([latest]);
	expect(lrs.queries).toEqual([{ verb: COMPLETED, limit: '1' }]);
	expect(poller.savedStaticData).toEqual({});
});

test('a failed poll moves nothing: the next poll repeats the same window', async () => {
	const lrs = fakeLrs();
	const poller = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
	await poller.poll();
	const saved = JSON.stringify(poller.savedStaticData);
	const a = lrs.add('2024-05-01T10:00:00.000Z');

	lrs.scope.persist(false);
	nock.cleanAll();
	nock('https://lrs.test').get(/.*/).times(2).reply(403, { message: 'forbidden' });
	await expect(poller.poll()).rejects.toThrow(/HTTP 403/);
	expect(JSON.stringify(poller.savedStaticData)).toBe(saved);

	nock.cleanAll();
	const again = fakeLrs();
	again.store.push(...lrs.store);
	expect(idsOf(await poller.poll())).toEqual([a]);
});

describe('the default filter: both documented completed IRIs', () => {
	describe.each([
		['exclusive', false],
		['inclusive', true],
	])('with a store whose "since" is %s', (_name, sinceInclusive) => {
		test('statements with either IRI are emitted once each, merged in `stored` order', async () => {
			const lrs = fakeLrs({ sinceInclusive });
			lrs.add('2024-05-01T10:00:00.000Z', COMPLETE);
			lrs.add('2024-05-01T10:00:01.000Z', COMPLETED);
			const poller = xApiTriggerPoller({}, tokenCredentials());

			expect(await poller.poll()).toBeNull();
			expect(await poller.poll()).toBeNull();

			const a = lrs.add('2024-05-01T10:00:05.000Z', COMPLETE);
			const b = lrs.add('2024-05-01T10:00:06.000Z', COMPLETED);
			const c = lrs.add('2024-05-01T10:00:06.500Z', COMPLETE);
			lrs.add('2024-05-01T10:00:06.700Z', PASSED);
			const d = lrs.add('2024-05-01T10:00:07.000Z', COMPLETED);
			expect(idsOf(await poller.poll())).toEqual([a, b, c, d]);

			// Late arrivals stored at the time of statements already emitted, one of each IRI.
			const late1 = lrs.add('2024-05-01T10:00:06.500Z', COMPLETED);
			const late2 = lrs.add('2024-05-01T10:00:07.000Z', COMPLETE);
			expect(idsOf(await poller.poll())).toEqual([late1, late2]);
			expect(await poller.poll()).toBeNull();
		});
	});

	test('each poll asks for each IRI since the cursor minus the overlap', async () => {
		const lrs = fakeLrs();
		lrs.add('2024-05-01T10:00:00.000Z', COMPLETED);
		lrs.add('2024-05-01T10:00:03.000Z', COMPLETE);
		const poller = xApiTriggerPoller({ filters: {} }, tokenCredentials());
		const withDefault = xApiTriggerPoller({}, tokenCredentials());

		await withDefault.poll();
		await withDefault.poll();
		// An explicit empty filter set watches every verb, with one query.
		await poller.poll();

		const since = '2024-05-01T10:00:01.000Z';
		expect(lrs.queries).toEqual([
			{ verb: COMPLETED, limit: '100' },
			{ verb: COMPLETE, limit: '100' },
			{ verb: COMPLETED, ascending: 'true', limit: '100', since },
			{ verb: COMPLETE, ascending: 'true', limit: '100', since },
			{ limit: '100' },
		]);
	});

	test('a restart (static data saved and read back) emits nothing twice', async () => {
		const lrs = fakeLrs();
		const before = xApiTriggerPoller({}, tokenCredentials());
		await before.poll();
		const a = lrs.add('2024-05-01T10:00:00.000Z', COMPLETE);
		expect(idsOf(await before.poll())).toEqual([a]);

		const after = xApiTriggerPoller({}, tokenCredentials());
		after.savedStaticData = JSON.parse(JSON.stringify(before.savedStaticData));
		expect(await after.poll()).toBeNull();
		const b = lrs.add('2024-05-01T10:00:00.500Z', COMPLETED);
		expect(idsOf(await after.poll())).toEqual([b]);
		expect(await after.poll()).toBeNull();
	});

	test('when one IRI has more new statements than a poll takes, nothing newer is emitted before them', async () => {
		const lrs = fakeLrs();
		const poller = xApiTriggerPoller({}, tokenCredentials());
		expect(await poller.poll()).toBeNull();

		const at = (second: number) => new Date(Date.UTC(2024, 4, 1, 11, 0, 0) + second * 1000);
		const completed = Array.from({ length: 1001 }, (_, i) => ({
			id: lrs.add(at(i).toISOString(), COMPLETED),
			ms: at(i).getTime(),
		}));
		const inBetween = { id: lrs.add(at(500.5).toISOString(), COMPLETE), ms: at(500.5).getTime() };
		const newest = { id: lrs.add(at(2000).toISOString(), COMPLETE), ms: at(2000).getTime() };
		const all = [...completed, inBetween, newest].sort((x, y) => x.ms - y.ms).map((s) => s.id);

		const first = idsOf(await poller.poll());
		const second = idsOf(await poller.poll());

		expect(first).toHaveLength(1000);
		expect([...first, ...second]).toEqual(all);
		expect(await poller.poll()).toBeNull();
	});

	test('when the time of a poll runs out inside one IRI, nothing newer of the other is emitted before the rest', async () => {
		// Each answer takes 200 ms and n8n gives a poll 4 s: reading stops after about 1 s on the
		// first IRI (its share of the reading time), well before its 900 statements are read.
		const lrs = fakeLrs({ delayMs: 200 });
		const poller = xApiTriggerPoller({}, tokenCredentials());
		poller.pollBudgetMs = 4_000;
		expect(await poller.poll()).toBeNull();

		const at = (second: number) => new Date(Date.UTC(2024, 4, 1, 11, 0, 0) + second * 1000);
		const added = [
			...Array.from({ length: 900 }, (_, i) => ({ second: i, verb: COMPLETED })),
			{ second: 100.5, verb: COMPLETE },
			{ second: 950, verb: COMPLETE },
		].map(({ second, verb }) => ({ id: lrs.add(at(second).toISOString(), verb), second }));
		const all = added.sort((x, y) => x.second - y.second).map((s) => s.id);

		const emitted: unknown[] = [];
		let polls = 0;
		for (let result = await poller.poll(); result !== null; result = await poller.poll()) {
			emitted.push(...idsOf(result));
			polls++;
		}

		expect(polls).toBeGreaterThan(1);
		expect(emitted).toEqual(all);
	});

	test('a cursor saved while watching the first completed IRI alone carries over: nothing replayed, nothing skipped', async () => {
		const lrs = fakeLrs();
		lrs.add('2024-05-01T10:00:00.000Z', COMPLETED);
		lrs.add('2024-05-01T09:00:00.000Z', COMPLETE);
		// The cursor as the trigger saved it when completed meant the first IRI only.
		const earlier = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
		expect(await earlier.poll()).toBeNull();
		const a = lrs.add('2024-05-01T10:00:10.000Z', COMPLETE);
		const b = lrs.add('2024-05-01T10:00:11.000Z', COMPLETED);

		const now = xApiTriggerPoller({}, tokenCredentials());
		now.savedStaticData = earlier.savedStaticData;

		expect(idsOf(await now.poll())).toEqual([a, b]);
		expect(await now.poll()).toBeNull();
	});

	test('a cursor of the first IRI alone that has seen nothing yet starts afresh: no history of the other IRI', async () => {
		const lrs = fakeLrs();
		lrs.add('2024-05-01T09:00:00.000Z', COMPLETE);
		const earlier = xApiTriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
		expect(await earlier.poll()).toBeNull();

		const now = xApiTriggerPoller({}, tokenCredentials());
		now.savedStaticData = earlier.savedStaticData;

		expect(await now.poll()).toBeNull();
		const a = lrs.add('2024-05-01T10:00:00.000Z', COMPLETED);
		expect(idsOf(await now.poll())).toEqual([a]);
	});

	test('a manual test returns the latest statement of either IRI', async () => {
		const lrs = fakeLrs();
		lrs.add('2024-05-01T10:00:00.000Z', COMPLETED);
		const latest = lrs.add('2024-05-01T10:00:02.000Z', COMPLETE);
		lrs.add('2024-05-01T10:00:01.000Z', COMPLETED);
		const poller = xApiTriggerPoller({}, tokenCredentials());

		expect(idsOf(await poller.poll('manual'))).toEqual([latest]);
		expect(lrs.queries).toEqual([
			{ verb: COMPLETED, limit: '1' },
			{ verb: COMPLETE, limit: '1' },
		]);
		expect(poller.savedStaticData).toEqual({});
	});

	test('a failure of the second query moves nothing: the next poll emits every statement once', async () => {
		const lrs = fakeLrs();
		const poller = xApiTriggerPoller({}, tokenCredentials());
		await poller.poll();
		const saved = JSON.stringify(poller.savedStaticData);
		const a = lrs.add('2024-05-01T10:00:00.000Z', COMPLETED);
		const b = lrs.add('2024-05-01T10:00:01.000Z', COMPLETE);

		lrs.scope.persist(false);
		nock.cleanAll();
		nock('https://lrs.test')
			.get(/verb=http%3A%2F%2Fadlnet/)
			.reply(200, { statements: [lrs.store[0]], more: '' })
			.get(/verb=http%3A%2F%2Factivitystrea/)
			.times(2)
			.reply(403, { message: 'forbidden' });
		await expect(poller.poll()).rejects.toThrow(/HTTP 403/);
		expect(JSON.stringify(poller.savedStaticData)).toBe(saved);

		nock.cleanAll();
		const again = fakeLrs();
		again.store.push(...lrs.store);
		expect(idsOf(await poller.poll())).toEqual([a, b]);
	});
});

describe('other verbs', () => {
	test('the Verb filter names no verb, one, several (spaces or a list), never a non-IRI or too many', () => {
		expect(verbsOf(undefined)).toEqual({ verbs: [] });
		expect(verbsOf('  ')).toEqual({ verbs: [] });
		expect(verbsOf(COMPLETED)).toEqual({ verbs: [COMPLETED] });
		expect(verbsOf(`${COMPLETED}\t${COMPLETE} ${COMPLETED}`)).toEqual({
			verbs: [COMPLETED, COMPLETE],
		});
		expect(verbsOf([PASSED, ` ${COMPLETE} `])).toEqual({ verbs: [PASSED, COMPLETE] });
		expect(verbsOf([PASSED, 42])).toHaveProperty('problem');
		expect(verbsOf('completed')).toHaveProperty('problem');
		const many = Array.from({ length: 21 }, (_, i) => `https://verbs.test/${i}`);
		expect(verbsOf(many)).toEqual({
			problem: 'filters.verb: at most 20 verbs (each is one more query on every poll)',
		});
	});

	test('an expression may name several verbs, separated by spaces or as a list', async () => {
		const lrs = fakeLrs();
		const poller = xApiTriggerPoller(
			{ filters: { verb: `={{ "${PASSED}  ${COMPLETED} ${PASSED} " }}` } },
			tokenCredentials(),
		);
		const list = xApiTriggerPoller(
			{ filters: { verb: `={{ ["${PASSED}", "${COMPLETE}"] }}` } },
			tokenCredentials(),
		);

		expect(await poller.poll()).toBeNull();
		expect(await list.poll()).toBeNull();
		const a = lrs.add('2024-05-01T10:00:00.000Z', PASSED);
		const b = lrs.add('2024-05-01T10:00:01.000Z', COMPLETED);
		const c = lrs.add('2024-05-01T10:00:02.000Z', COMPLETE);

		expect(idsOf(await poller.poll())).toEqual([a, b]);
		expect(idsOf(await list.poll())).toEqual([a, c]);
		expect(lrs.queries.slice(0, 4).map((query) => query.verb)).toEqual([
			PASSED,
			COMPLETED,
			PASSED,
			COMPLETE,
		]);
	});

	test('a verb that is not an IRI is refused before asking the store', async () => {
		const lrs = fakeLrs();
		const poller = xApiTriggerPoller({ filters: { verb: 'completed' } }, tokenCredentials());

		await expect(poller.poll()).rejects.toThrow(
			'Invalid filters: filters.verb: must be a verb IRI, like http://adlnet.gov/expapi/verbs/completed, or several separated by spaces',
		);
		expect(lrs.queries).toEqual([]);
	});
});
