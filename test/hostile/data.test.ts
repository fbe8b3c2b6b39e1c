/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Data that stays inside the limits: answers that are huge in sum, repeat items, nest without
 * end or start with a byte-order mark, throttle bookings of a cancelled run, and a trigger's
 * cursor against a record store with statements "stored in the future" or ids named like
 * Object.prototype members. Real loopback HTTP servers, driven through n8n's execution engine
 * (the trigger as an active workflow polls it). Each block names the point it holds.
 */
import { createRequire } from 'node:module';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Loopback } from '../../harness/loopback';
import { json, text } from '../../harness/loopback';
import type { PollTick, TriggerPoller } from '../../harness/poll';
import { xApiTriggerPoller } from '../../harness/poll';
import { MAX_JSON_DEPTH } from '../../nodes/shared/request/body';
import { MAX_ITEMS_WITHOUT_ID } from '../../nodes/shared/pacing/paging';
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
jest.setTimeout(60_000);

const COURSES = '/api/developer/v2/courses.json';
const MB = 1024 * 1024;

const coursesGetMany = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'course',
	operation: 'getMany',
	returnAll: true,
	options,
});

const statementsGetMany = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'statement',
	operation: 'getMany',
	returnAll: true,
	filters: {},
	options,
});

function lrsCredentials(server: Loopback) {
	return {
		xApiLrsApi: {
			endpoint: `${server.url}/xAPI`,
			authentication: 'basic',
			username: 'lrs-key',
			password: 'lrs-password',
			requestTimeout: 5,
		},
	};
}

const statementId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function statement(id: string | undefined, stored = '2024-05-01T10:00:00.000Z', extra = {}) {
	return {
		...(id === undefined ? {} : { id }),
		actor: { mbox: 'mailto:ada@example.com' },
		verb: { id: 'http://adlnet.gov/expapi/verbs/completed' },
		object: { id: 'https://learn.test/course' },
		stored,
		...extra,
	};
}

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

/** Every output item, error and cause of the run can be saved as n8n saves an execution. */
function expectSerialisable(run: { run: unknown; error?: unknown }) {
	expect(() => JSON.stringify(run.run)).not.toThrow();
	expect(() => JSON.stringify(run.error)).not.toThrow();
}

describe('6. a walk takes a bounded amount of memory: the answers as received and as parsed', () => {
	const filler = (n: number) => 'x'.repeat(n);

	test('Return All over courses of 600 KB each stops at Max Megabytes, counting each page twice', async () => {
		const pageBytes: number[] = [];
		const platform = await hostilePlatform((req, res) => {
			const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset'));
			const body = JSON.stringify({
				data: [{ id: `c-${offset}`, external_id: `e-${offset}`, description: filler(600 * 1024) }],
				total_count: 1_000,
			});
			pageBytes.push(Buffer.byteLength(body));
			text(res, 200, body, 'application/json');
		});

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany({ maxMegabytes: 2 }),
		});

		expect(run.error?.message).toBe(
			'Listing courses stopped after 2 MB of answers (as received and parsed)',
		);
		expect((run.error as unknown as IDataObject).description).toMatch(/Raise "Max Megabytes"/);
		// A page's text and the course parsed from it (its 600 KB description) each count. The walk
		// stops before the page that would take it past the budget: what it read fits, and one more
		// page as heavy as the heaviest read would not have.
		const read = apiCalls(platform).length;
		const total = pageBytes.slice(0, read).reduce((sum, size) => sum + size, 0);
		expect(2 * total).toBeLessThanOrEqual(2 * MB);
		expect(2 * (total + Math.max(...pageBytes.slice(0, read)))).toBeGreaterThan(2 * MB);
	});

	test('statement pages chained by "more" stop at Max Megabytes too', async () => {
		let page = 0;
		const lrs = await serve((_, res) => {
			page++;
			json(res, 200, {
				statements: [
					statement(statementId(page), undefined, { result: { response: filler(700 * 1024) } }),
				],
				more: `/xAPI/statements?page=${page}`,
			});
		});

		const run = await runNode({
			type: XAPI_NODE,
			credentials: lrsCredentials(lrs),
			parameters: statementsGetMany({ maxMegabytes: 1 }),
		});

		expect(run.error?.message).toMatch(/stopped after 1 MB of answers \(as received and parsed\)/);
		expect(lrs.received).toHaveLength(1);
	});

	test('a catalog within the budget is read whole', async () => {
		const platform = await hostilePlatform((req, res) => {
			const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset'));
			json(res, 200, {
				data: offset < 3 ? [{ id: `c-${offset}`, description: filler(100 * 1024) }] : [],
				total_count: 3,
			});
		});

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany({ maxMegabytes: 1 }),
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.id)).toEqual(['c-0', 'c-1', 'c-2']);
	});
});

describe('7. an id is emitted once per walk', () => {
	test('a course listed twice on one page (by id, and by external id alone) comes out once', async () => {
		const platform = await hostilePlatform((_, res) =>
			json(res, 200, {
				data: [
					{ id: '1', external_id: 'one' },
					{ id: '2', external_id: 'two' },
					{ id: '1', external_id: 'one' },
					{ external_id: 'three' },
					{ external_id: 'three' },
				],
				total_count: 5,
			}),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany(),
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.external_id)).toEqual(['one', 'two', 'three']);
	});

	test('a statement twice on one page (in any letter case) comes out once', async () => {
		const lrs = await serve((_, res) =>
			json(res, 200, {
				statements: [
					statement(statementId(1)),
					statement(statementId(2)),
					statement(statementId(1).toUpperCase()),
				],
			}),
		);

		const run = await runNode({
			type: XAPI_NODE,
			credentials: lrsCredentials(lrs),
			parameters: statementsGetMany(),
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => String(item.json.id).toLowerCase())).toEqual([
			statementId(1),
			statementId(2),
		]);
	});

	test('courses without any id, repeated page after page, stop at a bound of their own', async () => {
		const pageSize = 100;
		const platform = await hostilePlatform((_, res) =>
			json(res, 200, {
				data: Array.from({ length: pageSize }, () => ({ name: 'No id' })),
				total_count: 1_000_000,
			}),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany(),
		});

		expect(run.error?.message).toBe(
			`Listing courses stopped: the server sent more than ${MAX_ITEMS_WITHOUT_ID} items without an id`,
		);
		expect(apiCalls(platform)).toHaveLength(MAX_ITEMS_WITHOUT_ID / pageSize + 1);
	});
});

describe('8. JSON nested without end is refused', () => {
	test('a page of courses nested 20,000 deep fails with a clear error, and the run can be saved', async () => {
		const platform = await hostilePlatform((_, res) =>
			text(res, 200, `{"data":[{"id":"1","tags":${nested(20_000)}}]}`, 'application/json'),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany(),
		});

		expect(run.error?.message).toMatch(
			`unexpected answer (HTTP 200, application/json), JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
		);
		expect(run.items).toHaveLength(0);
		expectSerialisable(run);
	});

	test('a statement nested 20,000 deep fails with a clear error, and the run can be saved', async () => {
		const lrs = await serve((_, res) =>
			text(
				res,
				200,
				`{"id":"${statementId(1)}","result":{"extensions":{"x":${nested(20_000)}}}}`,
				'application/json',
			),
		);

		const run = await runNode({
			type: XAPI_NODE,
			credentials: lrsCredentials(lrs),
			parameters: { resource: 'statement', operation: 'get', statementId: statementId(1) },
		});

		expect(run.error?.message).toMatch(`JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
		expectSerialisable(run);
	});

	test('an error answer nested 20,000 deep still fails as its status says, and the run can be saved', async () => {
		const platform = await hostilePlatform((_, res) =>
			text(res, 400, `{"message":${nested(20_000)}}`, 'application/json'),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany(),
		});

		expect(run.error?.message).toMatch(/HTTP 400/);
		expectSerialisable(run);
	});

	test('answers nested as deep as the bound pass', async () => {
		// data → course → tags, then arrays down to MAX_JSON_DEPTH in all.
		const tags = nested(MAX_JSON_DEPTH - 3);
		const platform = await hostilePlatform((_, res) =>
			text(res, 200, `{"data":[{"id":"1","tags":${tags}}],"total_count":1}`, 'application/json'),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany(),
		});

		expect(run.error).toBeUndefined();
		expect(JSON.stringify(run.items[0].json.tags)).toBe(tags);
	});
});

describe('9. a UTF-8 byte-order mark before the JSON is accepted', () => {
	const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
	const withBom = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
		res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
		res.end(Buffer.concat([BOM, Buffer.from(JSON.stringify(body))]));
	};

	test('a page of courses', async () => {
		const platform = await hostilePlatform((_, res) =>
			withBom(res, 200, {
				data: [{ id: '1', external_id: 'one', name: 'Ünïcode' }],
				total_count: 1,
			}),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany(),
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.name)).toEqual(['Ünïcode']);
	});

	test('a statement', async () => {
		const lrs = await serve((_, res) => withBom(res, 200, statement(statementId(7))));

		const run = await runNode({
			type: XAPI_NODE,
			credentials: lrsCredentials(lrs),
			parameters: { resource: 'statement', operation: 'get', statementId: statementId(7) },
		});

		expect(run.error).toBeUndefined();
		expect(run.items[0].json.id).toBe(statementId(7));
	});

	test("an error answer's message", async () => {
		const platform = await hostilePlatform((_, res) =>
			withBom(res, 422, { message: 'Name is too long' }),
		);

		const run = await runNode({
			credentials: platformCredentials(platform),
			parameters: coursesGetMany(),
		});

		expect(run.error?.message).toMatch(/^Name is too long \(HTTP 422/);
	});
});

/** A record store on a loopback port: statements filtered by `since`, in `stored` order, paged by `limit`. */
async function statementStore(headers: () => Record<string, string> = () => ({})) {
	const statements: Array<Record<string, unknown>> = [];
	const server = await serve((req, res) => {
		const query = new URL(req.url, 'http://x').searchParams;
		const sinceMs = query.has('since') ? Date.parse(String(query.get('since'))) : -Infinity;
		const matching = statements
			.filter((s) => Date.parse(String(s.stored)) > sinceMs)
			.sort((a, b) => Date.parse(String(a.stored)) - Date.parse(String(b.stored)));
		if (query.get('ascending') !== 'true') matching.reverse();
		const page = matching.slice(0, Number(query.get('limit') ?? 100));
		const { 'no-date': noDate, ...extra } = headers();
		res.sendDate = noDate === undefined;
		json(res, 200, { statements: page }, extra);
	});
	const add = (id: string, stored: Date | string) => {
		statements.push(statement(id, typeof stored === 'string' ? stored : stored.toISOString()));
		return id;
	};
	return Object.assign(server, { add });
}

function trigger(server: Loopback) {
	return xApiTriggerPoller({ filters: {} }, lrsCredentials(server));
}

/** The trigger's cursor as n8n saved it in the workflow's static data. */
function savedCursor(poller: TriggerPoller): IDataObject {
	return (poller.savedStaticData['node:xAPI Trigger'] as IDataObject).cursor as IDataObject;
}

function saveCursor(poller: TriggerPoller, cursor: unknown): void {
	poller.savedStaticData = JSON.parse(JSON.stringify({ 'node:xAPI Trigger': { cursor } }));
}

const emittedIds = (tick: PollTick) => tick.emissions.flat().map((item) => item.json.id);

/** The logger n8n hands nodes (n8n-core's own), to see what the trigger logs. */
function n8nLogger(): { warn: (...args: unknown[]) => void } {
	const requireFromCore = createRequire(require.resolve('n8n-core'));
	const { Container } = requireFromCore('@n8n/di');
	const { Logger } = requireFromCore('@n8n/backend-common');
	return Container.get(Logger);
}

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);
const FAR_FUTURE = '2999-01-01T00:00:00.000Z';

describe('5. a statement stored "in the future" does not blind the trigger', () => {
	let warn: jest.SpyInstance;
	beforeEach(() => {
		warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
	});
	afterEach(() => warn.mockRestore());

	const warnings = () =>
		warn.mock.calls.map((call) => String(call[0])).filter((m) => m.includes('its own clock'));

	test('it is emitted once, says so, and the statements stored after it are still emitted', async () => {
		const lrs = await statementStore();
		lrs.add(statementId(1), secondsAgo(60));
		const poller = trigger(lrs);
		expect(emittedIds(await poller.tick())).toEqual([]);

		const future = lrs.add(statementId(2), FAR_FUTURE);
		expect(emittedIds(await poller.tick())).toEqual([future]);
		expect(warnings().join('\n')).toMatch(
			new RegExp(`1 statement\\(s\\) stored after its own clock .*${future} stored ${FAR_FUTURE}`),
		);
		expect(savedCursor(poller).storedMs).toBeLessThanOrEqual(Date.now() + 1000);

		const later = lrs.add(statementId(3), new Date());
		expect(emittedIds(await poller.tick())).toEqual([later]);
		expect(emittedIds(await poller.tick())).toEqual([]);
		expect(warnings()).toHaveLength(1);
	});

	test('a trigger activated while the newest statement lies in the future starts at the present', async () => {
		const lrs = await statementStore();
		lrs.add(statementId(1), secondsAgo(30));
		lrs.add(statementId(2), FAR_FUTURE);
		const poller = trigger(lrs);
		expect(emittedIds(await poller.tick())).toEqual([]);
		expect(warnings()).toHaveLength(1);

		const later = lrs.add(statementId(3), new Date());
		expect(emittedIds(await poller.tick())).toEqual([later]);
	});

	test("without a Date header, the store's Consistent-Through bounds the cursor", async () => {
		let through = '';
		const lrs = await statementStore(() => {
			through = new Date().toISOString();
			return { 'no-date': '1', 'X-Experience-API-Consistent-Through': through };
		});
		lrs.add(statementId(1), secondsAgo(60));
		const poller = trigger(lrs);
		await poller.tick();

		const future = lrs.add(statementId(2), FAR_FUTURE);
		expect(emittedIds(await poller.tick())).toEqual([future]);
		expect(savedCursor(poller).storedMs).toBe(Date.parse(through));
	});

	test("a cursor saved at a future time before is brought back to the store's clock", async () => {
		const lrs = await statementStore();
		lrs.add(statementId(1), secondsAgo(60));
		const poller = trigger(lrs);
		await poller.tick();
		saveCursor(poller, { ...savedCursor(poller), storedMs: Date.parse(FAR_FUTURE) });

		expect(emittedIds(await poller.tick())).toEqual([]);
		const later = lrs.add(statementId(2), new Date());
		expect(emittedIds(await poller.tick())).toEqual([later]);
	});
});

describe("11. statement ids named like Object.prototype members stay in the trigger's cursor", () => {
	const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];

	test('each is emitted once, and remembered across polls as n8n saves them', async () => {
		const lrs = await statementStore();
		lrs.add(statementId(1), secondsAgo(60));
		const poller = trigger(lrs);
		await poller.tick();

		const now = new Date();
		for (const name of names) lrs.add(name, now);
		expect(emittedIds(await poller.tick())).toEqual(names);
		expect(emittedIds(await poller.tick())).toEqual([]);

		expect(JSON.stringify(savedCursor(poller).recent)).toContain('"__proto__"');
	});

	test('a cursor saved in the earlier format (ids as keys) is still read: nothing is replayed', async () => {
		const lrs = await statementStore();
		const seen = [statementId(1), statementId(2)].map((id) => lrs.add(id, secondsAgo(1)));
		const poller = trigger(lrs);
		await poller.tick();
		const saved = savedCursor(poller) as { recent: Array<[string, number]> };
		expect(saved.recent.map(([id]) => id).sort()).toEqual(seen);
		const earlierFormat = {
			...saved,
			version: 1,
			recent: Object.fromEntries(saved.recent),
		};
		saveCursor(poller, earlierFormat);

		expect(emittedIds(await poller.tick())).toEqual([]);
		const later = lrs.add(statementId(3), new Date());
		expect(emittedIds(await poller.tick())).toEqual([later]);
	});
});

describe('10. a cancelled run gives its throttle bookings back', () => {
	test('after a bulk run is cancelled, a 1-item run on the client waits only the spacing after the last request sent', async () => {
		const arrivals: number[] = [];
		const platform = await hostilePlatform((_, res, index) => {
			arrivals.push(Date.now());
			json(res, 202, accepted(`tx-${index}`));
		});
		const requestsPerMinute = 30;
		const spacingMs = 60_000 / requestsPerMinute;
		const credentials = platformCredentials(platform, { requestsPerMinute });
		const controller = new AbortController();

		const bulk = runNode({
			credentials,
			items: Array.from({ length: 40 }, (_, i) => ({ id: `c-${i}` })),
			parameters: upsert({ waitForCompletion: false }),
			continueOnFail: true,
			signal: controller.signal,
		});
		await platform.waitFor(2); // the token, then the first write
		await new Promise((resolve) => setTimeout(resolve, 200)); // the next items book their slots
		controller.abort();
		await bulk;
		const sentByBulk = arrivals.length;

		const single = await runNode({
			credentials,
			items: [{ id: 'after' }],
			parameters: upsert({ waitForCompletion: false }),
		});

		expect(single.error).toBeUndefined();
		expect(arrivals).toHaveLength(sentByBulk + 1);
		const waited = arrivals[sentByBulk] - arrivals[sentByBulk - 1];
		// One spacing after the bulk run's last request (plus the timers' lateness), not the
		// cancelled bookings behind it (two more spacings at this rate).
		expect(waited).toBeLessThan(spacingMs + 1_000);
	});
});
