import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import type { PoolPlace } from '../../../shared/items/operation';
import { parseItemInput } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import type { CourseValues } from '../../transport/courseContract';
import { courseValuesSchema } from '../../transport/courseContract';
import { upsertCourse } from '../../transport/courses';
import { additionalFieldsProperty, topProperties } from '../common/courseForm';
import { coursePicker, pickedCourse } from '../common/coursePicker';
import type { WriteOptions } from '../common/writeOptions';
import { writeOptions, writeOptionsSchema, writeSettings } from '../common/writeOptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'The platform replaces the whole course on every upsert: fields left out are cleared, and groups or channels not listed are removed (unless Options → Keep Current Values fills them from the catalog)',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
	},
	// External ID (typed by default, or an existing course picked), then Name, URL, Prices.
	coursePicker('Your own ID for the course. Sending an existing one updates that course.', {
		displayName: 'External ID',
		firstMode: 'id',
	}),
	...topProperties().filter((p) => p.name !== 'externalId'),
	additionalFieldsProperty('upsert'),
	writeOptions('course', ['upsert'], { keepCurrentValues: true }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['upsert'] } },
	properties,
);

const valuesSchema = courseValuesSchema('upsert', true);
const optionsSchema = z.object({ options: writeOptionsSchema });

/** The form as the values' paths see it: top-level fields, and Additional Fields. */
const labelled = [...topProperties(), additionalFieldsProperty('upsert')];

interface UpsertInput {
	values: CourseValues;
	options: WriteOptions;
}

export function prepare(fns: IExecuteFunctions, itemIndex: number): UpsertInput {
	const values = parseItemInput(
		fns.getNode(),
		itemIndex,
		valuesSchema,
		{
			// The table's top-level fields, each read by its parameter (External ID is a picker).
			top: Object.fromEntries(
				topProperties().map((field) => [
					field.name,
					field.name === 'externalId'
						? pickedCourse(fns, itemIndex)
						: fns.getNodeParameter(field.name, itemIndex, field.default),
				]),
			),
			additionalFields: fns.getNodeParameter('additionalFields', itemIndex, {}),
		},
		'Invalid input',
		labelled,
	);
	const { options } = parseItemInput(
		fns.getNode(),
		itemIndex,
		optionsSchema,
		{ options: fns.getNodeParameter('options', itemIndex, {}) },
		'Invalid options',
		properties,
	);
	return { values, options };
}

export async function execute(
	run: LmsRun,
	input: UpsertInput,
	itemIndex: number,
	place: PoolPlace,
): Promise<IDataObject> {
	return await upsertCourse(run, itemIndex, input.values, {
		...writeSettings(run, input.options, place),
		keepCurrentValues: input.options.keepCurrentValues,
	});
}
