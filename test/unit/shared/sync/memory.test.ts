import { ObservableObject, type IDataObject, type IObservableObject } from 'n8n-workflow';

import { openMemory } from '../../../../nodes/shared/sync/memory';

/** Static data as n8n's Workflow.getStaticData builds it: observable, the changed mark on the root. */
function workflowStaticData() {
	const root = ObservableObject.create({}, undefined, { ignoreEmptyOnFirstChild: true });
	root['node:Sync catalog'] = ObservableObject.create({}, root as IObservableObject);
	return { root, store: { getWorkflowStaticData: () => root['node:Sync catalog'] as IDataObject } };
}

describe('sync memory in workflow static data', () => {
	it('marks the static data changed when saved, even after the mark was cleared during the run', () => {
		const { root, store } = workflowStaticData();
		const memory = openMemory(store, {
			owner: 'test',
			slot: 'syncedCourses',
			scope: 'client-a',
			grouped: false,
		});
		memory.entries.set('course-1', 'fingerprint1');
		// The mark lost during the run, as n8n 2.40.7 lost it when a newer run of the workflow overlapped.
		root.__dataChanged = false;

		memory.save();

		expect(root.__dataChanged).toBe(true);
		expect(
			openMemory(store, { owner: 'test', slot: 'syncedCourses', scope: 'client-a', grouped: false })
				.entries,
		).toEqual(new Map([['course-1', 'fingerprint1']]));
	});
});

describe('the memory’s two layouts', () => {
	const store = (node: IDataObject) => ({ getWorkflowStaticData: () => node });

	test('grouped: a value not in the "member value" form is dropped, never read as an entry', () => {
		const node: IDataObject = {
			slot: {
				scope: { '#': 'course-a\ncourse-b', 'ann@x.test': '0 abc|1 def', 'bob@x.test': 'abc' },
			},
		};
		const memory = openMemory(store(node), {
			owner: 'test',
			slot: 'slot',
			scope: 'scope',
			grouped: true,
		});
		expect([...memory.entries.keys()].map((k) => k.replace('\u0000', ' / '))).toEqual([
			'ann@x.test / course-a',
			'ann@x.test / course-b',
		]);
		expect(memory.dropped).toBe(1);
	});

	test('flat: a grouped value or a members table is dropped', () => {
		const node: IDataObject = {
			owner: 'test',
			slot: { scope: { '#': 'a\nb', k1: 'fingerprint', k2: '0 abc' } },
		};
		const memory = openMemory(store(node), {
			owner: 'test',
			slot: 'slot',
			scope: 'scope',
			grouped: false,
		});
		expect(memory.entries).toEqual(new Map([['k1', 'fingerprint']]));
		expect(memory.dropped).toBe(2);
	});

	test('grouped names compare in lower case and keep the spelling last written', () => {
		const node: IDataObject = {
			owner: 'test',
			slot: { scope: { '#': 'c', 'Ann.Lee@Example.com': '0 fp' } },
		};
		const memory = openMemory(store(node), {
			owner: 'test',
			slot: 'slot',
			scope: 'scope',
			grouped: true,
		});
		expect([...memory.entries.keys()]).toEqual(['ann.lee@example.com\u0000c']);
		expect(memory.spelling.get('ann.lee@example.com')).toBe('Ann.Lee@Example.com');
		memory.save();
		expect((node.slot as IDataObject).scope).toEqual({ '#': 'c', 'Ann.Lee@Example.com': '0 fp' });
	});
});

describe('grace clocks and the memory’s own record', () => {
	const NOW = Date.UTC(2026, 5, 1);
	const place = { owner: 'test', slot: 'slot', scope: 'scope', grouped: false, now: NOW };
	const clock = (ms: number) => Math.floor(ms / 1000).toString(36);
	const open = (scope: IDataObject, extra: Partial<typeof place> & IDataObject = {}) =>
		openMemory({ getWorkflowStaticData: () => ({ slot: { scope } }) }, { ...place, ...extra });

	test('a clock that can be when its entry went missing is kept', () => {
		const memory = open({ a: `fp~${clock(NOW - 86_400_000)}`, b: `~${clock(NOW)}` });
		expect(memory.dropped).toBe(0);
		expect(memory.entries.get('a')).toBe(`fp~${clock(NOW - 86_400_000)}`);
	});

	test.each([
		['after now', clock(NOW + 3_600_000)],
		['before 2025', clock(Date.UTC(2024, 11, 31))],
		['0', '0'],
		['negative', '-1'],
		['unreadable', 'x.y'],
		['beyond the calendar', 'zzzzzzzzz'],
	])('a clock %s is dropped and counted; the entry keeps its value', (_, digits) => {
		const memory = open({ a: `fp~${digits}`, b: `~${digits}` });
		expect(memory.dropped).toBe(2);
		expect(memory.entries).toEqual(new Map([['a', 'fp']]));
	});

	test('grouped: a value that was only a clock stays the node’s, unconfirmed', () => {
		const memory = openMemory(
			{ getWorkflowStaticData: () => ({ slot: { scope: { '#': 'c', 'ann@x.test': '0 ~0' } } }) },
			{ ...place, grouped: true },
		);
		expect(memory.dropped).toBe(1);
		expect([...memory.entries.values()]).toEqual(['*']);
	});

	test('a shared memory names its real sync, and spent approvals, in its own record', () => {
		const node: IDataObject = {};
		const store = { getWorkflowStaticData: () => node };
		const shared = { ...place, sharedKey: 'nightly' };
		const first = openMemory(store, { ...shared, node: { id: 'n-1', name: 'Sync' } });
		expect(first.keptBy).toBeUndefined();
		first.claim().release();
		first.spend('ABCDEFGHIJKLMNOP');
		first.save();
		const other = openMemory(store, { ...shared, node: { id: 'n-2', name: 'Copy' } });
		expect(other.keptBy).toEqual({ id: 'n-1', name: 'Sync' });
		expect(other.spent.map((p) => p.planId)).toEqual(['ABCDEFGHIJKLMNOP']);
		expect(
			openMemory(store, { ...shared, node: { id: 'n-1', name: 'Renamed' } }).keptBy,
		).toBeUndefined();
		expect(
			openMemory(store, { ...shared, node: { id: 'n-3', name: 'Sync' } }).keptBy,
		).toBeUndefined();
	});

	test('a record of another shape is dropped and counted, never read', () => {
		const memory = open({ '@': { node: { name: 3 }, spent: ['short~1', 7] }, a: 'fp' });
		expect(memory.dropped).toBe(3);
		expect(memory.spent).toEqual([]);
		expect(memory.entries).toEqual(new Map([['a', 'fp']]));
		expect(open({ '@': 'nonsense' }).dropped).toBe(1);
	});
});
