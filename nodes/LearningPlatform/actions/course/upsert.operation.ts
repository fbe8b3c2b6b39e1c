import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PoolPlace } from '../../../shared/pacing/time';
import type { LmsRun } from '../../transport';
import { upsertCourse } from '../../transport/courses';
import { readOptions } from '../../../shared/form/input';
import { writeOptions, writeOptionsSchema, writeSettings } from '../fields';
import { courseInputProperties, KEEP_CURRENT_VALUES, readCourse } from './courseInput';

const properties: INodeProperties[] = [
	{
		displayName:
			'The platform replaces the whole course on every upsert: fields left out are cleared, and groups or channels not listed are removed (unless Options → Keep Current Values fills them from the catalog)',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
	},
	...courseInputProperties(),
	writeOptions([KEEP_CURRENT_VALUES]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['upsert'] } },
	properties,
);

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const values = readCourse(fns, itemIndex);
	return { values, options: readOptions(fns, itemIndex, writeOptionsSchema, properties) };
}

export async function execute(
	run: LmsRun,
	input: ReturnType<typeof prepare>,
	itemIndex: number,
	place: PoolPlace,
): Promise<IDataObject> {
	return await upsertCourse(run, itemIndex, input.values, {
		...writeSettings(run, input.options, place),
		keepCurrentValues: input.options.keepCurrentValues,
	});
}
