import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { runNode, type SingleNodeRun } from '../helpers/workflows';

const fixture = useSandbox();

const COURSES = '/api/developer/v2/courses.json';

/** A catalog row as the platform's own object. */
function course(n: number, extra: IDataObject = {}): IDataObject {
	return {
		external_id: `c-${n}`,
		name: `Course ${n}`,
		url: `https://learn.test/c/${n}`,
		prices_data: [],
		...extra,
	};
}

function catalog(count: number, extra: (n: number) => IDataObject = () => ({})): IDataObject[] {
	return Array.from({ length: count }, (_, n) => course(n, extra(n)));
}

interface SyncRun
	extends Pick<SingleNodeRun, 'staticData' | 'continueOnFail' | 'signal' | 'workflowId'> {
	items: IDataObject[];
	options?: INodeParameters;
	parameters?: INodeParameters;
}

async function sync({ options = {}, parameters, ...run }: SyncRun) {
	return await runNode({
		credentials: fixture.credentials(),
		...run,
		mode: 'trigger',
		parameters: {
			resource: 'course',
			operation: 'sync',
			inputMode: 'json',
			course: '={{ $json }}',
			options,
			...parameters,
		},
	});
}

const writes = () =>
	fixture.sandbox.requests().filter((r) => r.method === 'POST' && r.path === COURSES);
const lists = () =>
	fixture.sandbox.requests().filter((r) => r.method === 'GET' && r.path === COURSES);
const bodyOf = (r: { body: unknown }) =>
	(typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as IDataObject;
const actions = (items: INodeExecutionData[]) => items.map((i) => i.json.action);
const stored = (externalId: string) => fixture.sandbox.state().courses[externalId];

describe('course sync', () => {
	test('creates the catalog, then writes nothing for an unchanged input (listing once)', async () => {
		const staticData: IDataObject = {};
		const rows = catalog(12, (n) => (n % 2 ? { level: 'beginner', skills: ['a', 'b'] } : {}));
		const first = await sync({ items: rows, staticData });
		expect(first.error).toBeUndefined();
		expect(actions(first.items)).toEqual(rows.map(() => 'created'));
		expect(first.items.map((i) => i.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(Object.keys(fixture.sandbox.state().courses)).toHaveLength(12);

		fixture.sandbox.configure({});
		const before = fixture.sandbox.requests().length;
		const second = await sync({ items: rows, staticData });
		expect(second.error).toBeUndefined();
		expect(actions(second.items)).toEqual(rows.map(() => 'unchanged'));
		const sent = fixture.sandbox.requests().slice(before);
		// The catalog is read once (12 courses, pages of at most 50) and nothing is written.
		expect(sent.filter((r) => r.path === COURSES).map((r) => r.method)).toEqual(['GET']);
	});

	test('remembers a small fingerprint per course, scoped to the client', async () => {
		const staticData: IDataObject = {};
		await sync({ items: catalog(20, () => ({ level: 'advanced' })), staticData });
		const scopes = Object.values(staticData['node:Node'] as IDataObject)[0] as IDataObject;
		const memory = Object.values(scopes)[0] as Record<string, string>;
		expect(Object.keys(memory)).toHaveLength(20);
		const bytes = JSON.stringify(memory).length / 20;
		expect(bytes).toBeLessThanOrEqual(64);
	});

	test('updates only what changed: a listed field, or a field only the fingerprint knows', async () => {
		const staticData: IDataObject = {};
		const rows = catalog(6, () => ({ level: 'beginner' }));
		await sync({ items: rows, staticData });
		const changed = rows.map((row) => ({ ...row }));
		changed[1].name = 'Renamed';
		changed[4].level = 'advanced';
		const before = writes().length;
		const run = await sync({ items: changed, staticData });
		expect(run.error).toBeUndefined();
		expect(actions(run.items)).toEqual([
			'unchanged',
			'updated',
			'unchanged',
			'unchanged',
			'updated',
			'unchanged',
		]);
		expect(
			writes()
				.slice(before)
				.map((r) => bodyOf(r).external_id),
		).toEqual(['c-1', 'c-4']);
		expect(stored('c-1').name).toBe('Renamed');
		expect(stored('c-4').level).toBe('advanced');
		expect(run.items[1].json).toMatchObject({ confirmation: 'confirmed', changedFields: ['Name'] });
	});

	test('without remembered state: rows of listed fields only are decided by the listing; the rest are written', async () => {
		const rows = [course(0), course(1, { content_type: 'video' }), course(2)];
		await sync({ items: rows, staticData: {} });
		const before = writes().length;
		// A fresh workflow (or a manual run): nothing remembered.
		const run = await sync({ items: rows, staticData: {}, workflowId: 'fresh' });
		expect(actions(run.items)).toEqual(['unchanged', 'updated', 'unchanged']);
		expect(
			writes()
				.slice(before)
				.map((r) => bodyOf(r).external_id),
		).toEqual(['c-1']);
	});

	test('Skip Unchanged off writes every course', async () => {
		const staticData: IDataObject = {};
		const rows = catalog(4);
		await sync({ items: rows, staticData });
		const before = writes().length;
		const run = await sync({ items: rows, staticData, options: { skipUnchanged: false } });
		expect(actions(run.items)).toEqual(rows.map(() => 'updated'));
		expect(writes().length - before).toBe(4);
	});

	test('archives what left the input, once, with one output item each', async () => {
		const staticData: IDataObject = {};
		const rows = catalog(10);
		await sync({ items: rows, staticData });
		const kept = rows.filter((_, n) => n !== 3);
		kept[1] = { ...kept[1], name: 'Renamed' };
		const run = await sync({ items: kept, staticData, options: { archiveMissing: true } });
		expect(run.error).toBeUndefined();
		const archived = run.items.filter((i) => i.json.action === 'archived');
		expect(archived.map((i) => i.json.externalId)).toEqual(['c-3']);
		expect(archived[0].json.confirmation).toBe('confirmed');
		expect(run.items).toHaveLength(kept.length + 1);
		// After every row's own item, paired with none: an archive comes from no input row.
		expect(run.items[kept.length]).toMatchObject({
			json: { action: 'archived' },
			pairedItem: [],
		});
		expect(stored('c-3').status).toBe('archived');
		expect(stored('c-2').status).toBe('active');
		const hints = JSON.stringify(run.run.data.resultData.runData.Node[0].hints ?? []);
		expect(hints).toContain('0 created, 1 updated, 8 unchanged, 1 archived, 0 failed');

		// The listing still shows it; the node remembers it archived it.
		const before = writes().length;
		const again = await sync({ items: kept, staticData, options: { archiveMissing: true } });
		expect(again.error).toBeUndefined();
		expect(actions(again.items)).toEqual(kept.map(() => 'unchanged'));
		expect(writes().length).toBe(before);
	});

	test('the guard refuses a plan that archives too much: nothing at all is written', async () => {
		const staticData: IDataObject = {};
		const rows = catalog(20);
		await sync({ items: rows, staticData });
		const before = writes().length;
		const truncated = rows.slice(0, 3).map((row) => ({ ...row, name: `${row.name} (new)` }));
		const run = await sync({ items: truncated, staticData, options: { archiveMissing: true } });
		expect(run.error?.message).toContain(
			'would archive 17 of 20 courses (85 %), more than Max Archive Share (10 %)',
		);
		expect(writes().length).toBe(before);
		expect(stored('c-0').name).toBe('Course 0');

		const allowed = await sync({
			items: truncated,
			staticData,
			options: { archiveMissing: true, maxArchiveShare: 90 },
		});
		expect(allowed.error).toBeUndefined();
		expect(allowed.items.filter((i) => i.json.action === 'archived')).toHaveLength(17);
	});

	test('duplicate external IDs fail those items by name and are never written (nor archived)', async () => {
		const staticData: IDataObject = {};
		await sync({ items: catalog(5), staticData });
		const rows = [
			course(0),
			course(1, { name: 'One' }),
			course(1, { name: 'Uno' }),
			course(2),
			course(3),
			course(4),
		];
		const before = writes().length;
		const run = await sync({
			items: rows,
			staticData,
			continueOnFail: true,
			options: { archiveMissing: true },
		});
		expect(run.error).toBeUndefined();
		expect(run.items[1].json.error).toContain('External ID "c-1" is on items 1, 2');
		expect(run.items[2].json.error).toContain('External ID "c-1" is on items 1, 2');
		expect(writes().length).toBe(before);
		expect(stored('c-1').name).toBe('Course 1');
		expect(stored('c-1').status).toBe('active');

		const stopped = await sync({ items: rows, staticData });
		expect(stopped.error?.message).toContain('External ID "c-1" is on items 1, 2');
		expect(writes().length).toBe(before);
	});

	test('an invalid row still counts as present: it is failed by name and its course is never archived', async () => {
		const staticData: IDataObject = {};
		await sync({ items: catalog(5), staticData });
		const rows = catalog(5);
		rows[2] = { ...rows[2], url: 'not a url', name: 'Changed' };
		rows[4] = { ...rows[4], name: 'Renamed' };
		const run = await sync({
			items: rows,
			staticData,
			continueOnFail: true,
			options: { archiveMissing: true },
		});
		expect(run.error).toBeUndefined();
		expect(run.items[2].json.error).toContain('url: must be a full http(s) URL');
		expect(run.items[4].json.action).toBe('updated');
		expect(run.items.some((i) => i.json.action === 'archived')).toBe(false);
		expect(stored('c-2').status).toBe('active');

		// Without Continue On Fail, nothing is sent at all.
		const before = fixture.sandbox.requests().length;
		const stopped = await sync({ items: rows, staticData, options: { archiveMissing: true } });
		expect(stopped.error?.message).toContain('url');
		expect(fixture.sandbox.requests().length).toBe(before);
	});

	test('JSON mode names each bad field by its API path and refuses unknown keys', async () => {
		const bad = {
			external_id: 'j-1',
			name: 'JSON course',
			url: 'https://learn.test/j',
			prices_data: [{ amount: -3, currency: 'USD' }],
			languages_attributes: [{ language_code: 'english', title: 'T' }],
			level: 'expert',
			colour: 'blue',
		};
		const run = await sync({ items: [bad], continueOnFail: true });
		const message = String(run.items[0].json.error);
		expect(message).toContain('Invalid course on item 0 ("j-1")');
		expect(message).toContain('colour: is not a field of a course');
		expect(message).toContain('level: must be one of beginner, intermediate, advanced');
		expect(lists()).toHaveLength(1);
		expect(writes()).toHaveLength(0);

		const known: IDataObject = { ...bad };
		delete known.colour;
		const fieldLevel = await sync({
			items: [{ ...known, level: 'advanced' }],
			continueOnFail: true,
		});
		const detail = String(fieldLevel.items[0].json.error);
		expect(detail).toContain('prices_data[0].amount: must be greater than 0');
		expect(detail).toContain(
			'languages_attributes[0].language_code: must be a two-letter language code',
		);
	});

	test('JSON mode on Create or Update sends the platform object as the form would', async () => {
		const input = {
			external_id: 'j-2',
			name: ' JSON course ',
			url: 'https://learn.test/j2',
			prices_data: [{ amount: '19.5', currency: 'INR' }],
			languages_attributes: [{ language_code: 'DE', title: 'Kurs' }],
			skills: 'a, b',
			description: null,
		};
		const run = await runNode({
			credentials: fixture.credentials(),
			items: [input],
			parameters: {
				resource: 'course',
				operation: 'upsert',
				inputMode: 'json',
				course: '={{ $json }}',
			},
		});
		expect(run.error).toBeUndefined();
		expect(bodyOf(writes()[0])).toEqual({
			external_id: 'j-2',
			name: 'JSON course',
			url: 'https://learn.test/j2',
			prices_data: [{ amount: 19.5, currency: 'INR' }],
			languages_attributes: [{ language_code: 'de', title: 'Kurs' }],
			skills: ['a', 'b'],
		});
	});

	test('fields mode works too', async () => {
		const run = await sync({
			items: [{ id: 'f-1', title: 'Fields' }],
			parameters: {
				inputMode: 'fields',
				course: undefined,
				externalId: '={{ $json.id }}',
				name: '={{ $json.title }}',
				url: 'https://learn.test/f',
			},
		});
		expect(run.error).toBeUndefined();
		expect(actions(run.items)).toEqual(['created']);
		expect(stored('f-1').name).toBe('Fields');
	});

	test('an interrupted sync, run again, converges: nothing lost, nothing archived twice', async () => {
		const staticData: IDataObject = {};
		const rows = catalog(40);
		await sync({ items: rows, staticData });
		fixture.sandbox.configure({ transactionDelayMs: 400 });
		// Half the catalog changes; three courses leave it.
		const next = rows
			.filter((_, n) => n < 37)
			.map((row, n) => (n % 2 ? { ...row, name: `${row.name} v2`, level: 'advanced' } : row));
		const controller = new AbortController();
		const running = sync({
			items: next,
			staticData,
			signal: controller.signal,
			options: { archiveMissing: true },
		});
		// Cancel once an archive was sent (they go last), while transactions are still running.
		const archiveSent = () => writes().some((r) => bodyOf(r).status === 'archived');
		for (let i = 0; i < 400 && !archiveSent(); i++) await sleep(5);
		// Counted at the moment of cancelling: accepted writes whose transactions still run.
		const runningAtCancel = () =>
			fixture.sandbox.state().transactions.filter((t) => t.status === 'initiated').length;
		const unfinishedAtCancel = runningAtCancel();
		controller.abort();
		await running;
		// The cancelled run had sent archives; it stopped before seeing every transaction end.
		expect(archiveSent()).toBe(true);
		expect(unfinishedAtCancel).toBeGreaterThan(0);
		// The platform carries out what it accepted, whether or not anyone waits for it.
		for (let i = 0; i < 400 && runningAtCancel() > 0; i++) await sleep(10);

		fixture.sandbox.configure({ transactionDelayMs: 20 });
		const again = await sync({ items: next, staticData, options: { archiveMissing: true } });
		expect(again.error).toBeUndefined();
		const state = fixture.sandbox.state();
		for (const row of next) {
			expect(state.courses[row.external_id as string]).toMatchObject({
				name: row.name,
				status: 'active',
				level: row.level ?? null,
			});
		}
		for (const gone of ['c-37', 'c-38', 'c-39']) {
			expect(state.courses[gone].status).toBe('archived');
			// One archive write applied per course, whichever run sent it.
			const archiveWrites = writes().filter(
				(r) => bodyOf(r).external_id === gone && bodyOf(r).status === 'archived',
			);
			expect(archiveWrites).toHaveLength(1);
		}
		// A third run finds nothing to do.
		const before = writes().length;
		const third = await sync({ items: next, staticData, options: { archiveMissing: true } });
		expect(actions(third.items)).toEqual(next.map(() => 'unchanged'));
		expect(writes().length).toBe(before);
	});
});
