/**
 * Sync Catalog against a loopback platform whose listing lies (ends early, lists a course
 * twice, holds look-alike ids) and against damaged memory, through n8n's execution engine.
 */
import type { IDataObject } from 'n8n-workflow';

import { json } from '../../harness/loopback';
import type { Received } from '../../harness/loopback';
import { runNode } from '../helpers/workflows';
import { hostilePlatform, platformCredentials, realNetwork } from './platform';

const COURSES = '/api/developer/v2/courses.json';

realNetwork();
jest.setTimeout(60_000);

type Listing = (courses: IDataObject[], offset: number, limit: number) => IDataObject;

/** A platform that keeps the courses written to it; `listing` decides what a page shows. */
async function catalogPlatform(initial: IDataObject[] = []) {
	const courses = new Map<string, IDataObject>();
	for (const course of initial) courses.set(String(course.external_id), course);
	let listing: Listing = (all, offset, limit) => ({
		data: all.slice(offset, offset + limit),
		total_count: all.length,
	});
	let transactions = 0;
	const server = await hostilePlatform((req: Received, res) => {
		const url = new URL(req.url, 'http://x');
		if (req.method === 'GET' && url.pathname === COURSES) {
			const all = [...courses.values()];
			const offset = Number(url.searchParams.get('offset'));
			const limit = Number(url.searchParams.get('limit'));
			return json(res, 200, listing(all, offset, limit));
		}
		if (req.method === 'POST' && url.pathname === COURSES) {
			const body = JSON.parse(req.body) as IDataObject;
			const known = courses.get(String(body.external_id));
			courses.set(String(body.external_id), {
				id: known?.id ?? `p-${body.external_id}`,
				...body,
			});
			return json(res, 200, {
				message: 'Request accepted',
				data: {
					id: `tx-${++transactions}`,
					http_method: 'POST',
					status: 'initiated',
					response: {},
				},
			});
		}
		if (url.pathname.startsWith('/api/developer/v2/request_data/')) {
			const id = url.pathname.split('/').pop();
			return json(res, 200, {
				data: { id, http_method: 'POST', status: 'success', response: { message: 'done' } },
			});
		}
		return json(res, 404, { message: 'not found' });
	});
	const credentials = platformCredentials(server);
	const writes = () =>
		server.received
			.filter((r) => r.method === 'POST' && r.url.startsWith(COURSES))
			.map((r) => JSON.parse(r.body) as IDataObject);
	return {
		server,
		courses,
		writes,
		list(next: Listing) {
			listing = next;
		},
		async sync(items: IDataObject[], staticData: IDataObject, options: IDataObject = {}) {
			const before = writes().length;
			const result = await runNode({
				credentials,
				items,
				staticData,
				mode: 'trigger',
				continueOnFail: true,
				parameters: {
					resource: 'course',
					operation: 'sync',
					inputMode: 'json',
					course: '={{ $json }}',
					options: { archiveMissing: true, ...options },
				},
			});
			const hints =
				(
					result.run.data.resultData.runData.Node?.[0] as { hints?: Array<{ message: string }> }
				)?.hints?.map((h) => h.message) ?? [];
			return { ...result, hints, sent: writes().slice(before) };
		},
	};
}

const course = (id: string, extra: IDataObject = {}): IDataObject => ({
	external_id: id,
	name: `Course ${id}`,
	url: `https://learn.test/${encodeURIComponent(id)}`,
	prices_data: [],
	...extra,
});
const range = (from: number, to: number) =>
	Array.from({ length: to - from }, (_, n) => course(`c-${from + n}`, { level: 'beginner' }));
/** The memory's entries, in a stable order. */
const remembered = (staticData: IDataObject) =>
	Object.values(((staticData['node:Node'] as IDataObject).syncedCourses as IDataObject) ?? {})
		.flatMap((scope) => Object.entries(scope as IDataObject).map(([k, v]) => `${k}=${String(v)}`))
		.sort();
const actions = (items: Array<{ json: IDataObject }>) => items.map((i) => i.json.action);
const count = (list: unknown[], value: unknown) => list.filter((v) => v === value).length;

describe('3. a listing that ends early archives nothing and forgets nothing', () => {
	async function archivedTwenty() {
		const platform = await catalogPlatform();
		const staticData: IDataObject = {};
		const all = range(0, 300);
		await platform.sync(all, staticData, { maxArchiveShare: 10 });
		const kept = all.slice(0, 280);
		const second = await platform.sync(kept, staticData, { maxArchiveShare: 10 });
		expect(count(actions(second.items), 'archived')).toBe(20);
		return { platform, staticData, kept };
	}

	async function expectNothingLost(
		platform: Awaited<ReturnType<typeof catalogPlatform>>,
		staticData: IDataObject,
		kept: IDataObject[],
	) {
		const memory = remembered(staticData);
		const cut = await platform.sync(kept, staticData, { maxArchiveShare: 10 });
		expect(cut.error).toBeUndefined();
		expect(cut.sent.filter((w) => w.status === 'archived')).toEqual([]);
		expect(actions(cut.items).filter((a) => a === 'created')).toEqual([]);
		expect(cut.hints.join('\n')).toMatch(/Nothing was archived and nothing forgotten/);
		const after = remembered(staticData);
		expect(after.length).toBe(memory.length);
		expect(after.filter((entry, n) => entry !== memory[n])).toEqual([]);
		expect(after.filter((entry) => entry.endsWith('=!'))).toHaveLength(20);

		platform.list((all, offset, limit) => ({
			data: all.slice(offset, offset + limit),
			total_count: all.length,
		}));
		const honest = await platform.sync(kept, staticData, { maxArchiveShare: 10 });
		expect(honest.error).toBeUndefined();
		expect(honest.sent).toEqual([]);
		expect(actions(honest.items)).toEqual(kept.map(() => 'unchanged'));
	}

	test('total_count lower than the catalog', async () => {
		const { platform, staticData, kept } = await archivedTwenty();
		platform.list((all, offset, limit) => {
			const shown = all.slice(0, 200);
			return { data: shown.slice(offset, offset + limit), total_count: shown.length };
		});
		await expectNothingLost(platform, staticData, kept);
	});

	test('an empty page in the middle', async () => {
		const { platform, staticData, kept } = await archivedTwenty();
		platform.list((all, offset, limit) => ({
			data: offset === 100 ? [] : all.slice(offset, offset + limit),
			total_count: all.length,
		}));
		await expectNothingLost(platform, staticData, kept);
	});
});

describe('4. a course listed twice is one decision', () => {
	test('one external id under two platform ids, missing from the input, is archived once', async () => {
		const platform = await catalogPlatform();
		const staticData: IDataObject = {};
		const all = range(0, 20);
		await platform.sync(all, staticData);
		platform.list((courses, offset, limit) => {
			const twice = [...courses, { ...courses[19], id: 'another-platform-id' }];
			return { data: twice.slice(offset, offset + limit), total_count: twice.length };
		});
		const run = await platform.sync(all.slice(0, 19), staticData);
		expect(run.error).toBeUndefined();
		expect(count(actions(run.items), 'archived')).toBe(1);
		expect(run.sent.filter((w) => w.status === 'archived').map((w) => w.external_id)).toEqual([
			'c-19',
		]);
		expect(run.hints.join('\n')).toMatch(/listed more than once/);
	});
});

describe('5. look-alike ids are never written and archived in one run', () => {
	test('input look-alikes of listed courses fail by name; nothing is created or archived', async () => {
		const platform = await catalogPlatform([
			{ ...course('ABC-1'), id: 'p1' },
			{ ...course('Trail-1 '), id: 'p2' },
			{ ...course('Cafe\u0301-1'), id: 'p3' },
		]);
		const staticData: IDataObject = {};
		const run = await platform.sync(
			[course('abc-1'), course('Trail-1'), course('Caf\u00e9-1')],
			staticData,
			{ maxArchiveShare: 100 },
		);
		expect(run.sent).toEqual([]);
		expect(run.items).toHaveLength(3);
		for (const item of run.items)
			expect(item.json.error).toMatch(/is not in the courses listed, but/);
		expect(run.items.map((i) => i.json.error).join('\n')).toMatch(/"abc-1".*"ABC-1"/);
	});

	test('input rows that are look-alikes of each other all fail by name', async () => {
		const platform = await catalogPlatform();
		const run = await platform.sync(
			[course('New-1'), course('new-1'), course('NEW-1'), course('other')],
			{},
		);
		expect(run.sent.map((w) => w.external_id)).toEqual(['other']);
		expect(run.items.slice(0, 3).map((i) => i.json.error)).toEqual([
			expect.stringMatching(/"New-1" looks like "new-1", "NEW-1"/),
			expect.stringMatching(/"new-1" looks like/),
			expect.stringMatching(/"NEW-1" looks like/),
		]);
		expect(run.items[3].json.action).toBe('created');
	});
});

describe('6. damaged memory is dropped, never crashes, and never repeats writes', () => {
	const scopeOf = (staticData: IDataObject) =>
		(staticData['node:Node'] as IDataObject).syncedCourses as IDataObject;

	test.each([
		['a remembered value that is a number', (m: IDataObject) => fill(m, 7)],
		['a remembered value that is {}', (m: IDataObject) => fill(m, {})],
		['a remembered value that is null', (m: IDataObject) => fill(m, null)],
		['a client entry that is a number', (m: IDataObject) => clients(m, 42)],
		['a client entry that is a string', (m: IDataObject) => clients(m, 'x')],
		[
			'the whole memory a string',
			(_: IDataObject, s: IDataObject) => ((s['node:Node'] as IDataObject).syncedCourses = 'x'),
		],
	])('%s', async (_, damage) => {
		const platform = await catalogPlatform();
		const staticData: IDataObject = {};
		const all = range(0, 10);
		await platform.sync(all, staticData);
		damage(scopeOf(staticData), staticData);
		const first = await platform.sync(all, staticData);
		expect(first.error).toBeUndefined();
		expect(JSON.stringify(first.items)).not.toMatch(/TypeError|Cannot read/);
		expect(first.hints.join('\n')).toMatch(/malformed .* dropped/);
		const second = await platform.sync(all, staticData);
		expect(second.error).toBeUndefined();
		expect(second.sent).toEqual([]);
		expect(actions(second.items)).toEqual(all.map(() => 'unchanged'));
	});

	function fill(scopes: IDataObject, value: unknown) {
		for (const memory of Object.values(scopes) as IDataObject[]) {
			for (const key of Object.keys(memory)) memory[key] = value as IDataObject;
		}
	}
	function clients(scopes: IDataObject, value: unknown) {
		for (const key of Object.keys(scopes)) scopes[key] = value as IDataObject;
	}
});
