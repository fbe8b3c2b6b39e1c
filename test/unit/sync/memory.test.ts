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
		const memory = openMemory(store, 'syncedCourses', 'client-a', false);
		memory.entries.set('course-1', 'fingerprint1');
		// The mark lost during the run, as n8n 2.40.7 lost it when a newer run of the workflow overlapped.
		root.__dataChanged = false;

		memory.save();

		expect(root.__dataChanged).toBe(true);
		expect(openMemory(store, 'syncedCourses', 'client-a', false).entries).toEqual(
			new Map([['course-1', 'fingerprint1']]),
		);
	});
});
