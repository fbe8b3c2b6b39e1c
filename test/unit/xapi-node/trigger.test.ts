import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';

import { fakeLrs } from './fakeLrs';
import { COMPLETED, resetNock, tokenCredentials } from './helpers';
import { TriggerPoller } from './poll';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const PASSED = 'http://adlnet.gov/expapi/verbs/passed';
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
		const poller = new TriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());

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
	const poller = new TriggerPoller(
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

test('the verb filter defaults to completed', async () => {
	const lrs = fakeLrs();
	const poller = new TriggerPoller({}, tokenCredentials());

	await poller.poll();

	expect(lrs.queries[0].verb).toBe(COMPLETED);
});

test('a backlog spread over several pages is read in full, following the more links', async () => {
	const lrs = fakeLrs();
	const poller = new TriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
	expect(await poller.poll()).toBeNull();

	const added = Array.from({ length: 250 }, (_, i) =>
		lrs.add(new Date(Date.UTC(2024, 4, 1, 11, 0, i)).toISOString()),
	);

	expect(idsOf(await poller.poll())).toEqual(added);
	expect(await poller.poll()).toBeNull();
});

test('an empty store at activation: everything stored later is new', async () => {
	const lrs = fakeLrs();
	const poller = new TriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());

	expect(await poller.poll()).toBeNull();
	const first = lrs.add('2020-01-01T00:00:00.000Z');
	expect(idsOf(await poller.poll())).toEqual([first]);
	expect(await poller.poll()).toBeNull();
});

test('changing the filters starts afresh from the newest matching statement', async () => {
	const lrs = fakeLrs();
	lrs.add('2024-05-01T10:00:00.000Z', PASSED);
	const poller = new TriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
	await poller.poll();

	const changed = new TriggerPoller({ filters: { verb: PASSED } }, tokenCredentials());
	changed.savedStaticData = poller.savedStaticData;

	expect(await changed.poll()).toBeNull();
	const next = lrs.add('2024-05-01T10:00:10.000Z', PASSED);
	expect(idsOf(await changed.poll())).toEqual([next]);
});

test('a manual test returns the latest matching statement and leaves the cursor alone', async () => {
	const lrs = fakeLrs();
	lrs.add('2024-05-01T10:00:00.000Z');
	const latest = lrs.add('2024-05-01T10:00:02.000Z');
	const poller = new TriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());

	expect(idsOf(await poller.poll('manual'))).toEqual([latest]);
	expect(lrs.queries).toEqual([{ verb: COMPLETED, limit: '1' }]);
	expect(poller.savedStaticData).toEqual({});
});

test('a failed poll moves nothing: the next poll repeats the same window', async () => {
	const lrs = fakeLrs();
	const poller = new TriggerPoller({ filters: { verb: COMPLETED } }, tokenCredentials());
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
