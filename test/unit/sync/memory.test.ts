import { ObservableObject, type IDataObject, type IObservableObject } from 'n8n-workflow';

import { openMemory } from '../../../nodes/shared/sync/memory';

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
