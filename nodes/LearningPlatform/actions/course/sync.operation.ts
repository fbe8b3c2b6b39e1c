import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { EXTERNAL_ID_FIELD } from '../../transport';
import { courseSyncContract } from '../../transport/courseSync';
import { pickedCourse } from '../fields';
import { syncOperation, syncRow } from '../syncOperation';
import { dryRunNotice } from '../syncOptions';
import { courseInputProperties, courseObject, idText, readCourse } from './courseInput';

export const kind = 'batch';

const sync = syncOperation({
	remove: 'Archive',
	entry: 'course',
	missingHint: 'Archiving cannot be undone.',
	sharedKeyHarm: 'each would plan from what the other wrote as if it had written it',
	missingHelp:
		'Whether to archive the courses that are in the catalog but not in the input. Archived content cannot be made active again.',
	shareHelp:
		'If the sync would archive more than this share of the catalog, nothing at all is written and the run fails saying how many it would archive (a truncated file looks like that)',
	skipHelp:
		'Whether to leave out courses whose listed fields match and whose other fields match what this node last confirmed. Off, every course is written (a full resync).',
	slot: 'syncedCourses',
	grouped: false,
	contract: (run, write, memory) => courseSyncContract(run, write, memory.entries),
});

const properties: INodeProperties[] = [
	{
		displayName:
			'The input items are the whole catalog: one item per course. The catalog is listed once; only courses that are new or changed are written, and (with Archive Missing) courses no longer in the input are archived.',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	dryRunNotice('courses'),
	...courseInputProperties(),
	sync.property,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['sync'] } },
	properties,
);

function courseRow(fns: IExecuteFunctions, itemIndex: number) {
	const values = readCourse(fns, itemIndex);
	return { id: String(values[EXTERNAL_ID_FIELD]), values };
}

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	return syncRow(fns, itemIndex, courseRow, readableExternalId);
}

export const execute = sync.execute;

/** The external id even of an invalid item, so Sync Catalog can count the row as present. */
function readableExternalId(fns: IExecuteFunctions, itemIndex: number): string | undefined {
	if (fns.getNodeParameter('inputMode', itemIndex, 'fields') !== 'json') {
		return idText(pickedCourse(fns, itemIndex));
	}
	const course = courseObject(fns.getNodeParameter('course', itemIndex));
	return typeof course === 'string' ? undefined : idText(course[EXTERNAL_ID_FIELD]);
}
