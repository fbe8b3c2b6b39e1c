import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection } from '../../../shared/items/operation';
import type { OutputChoice, OutputForm } from '../../../shared/items/output';
import {
	definedOnly,
	outputChoiceSchema,
	readOutputChoice,
	outputProperties,
	pagingCeilingProperties,
	pagingCeilingShape,
	pagingLimitsFrom,
	returnAllAndLimit,
	shapeRecord,
} from '../../../shared/items/output';
import { parseItemInput } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport';
import { LISTING_ITEM_FIELDS, SIMPLIFIED_COURSE_FIELDS } from '../../transport/courseContract';
import { forEachCoursePage, PAGE_SIZE } from '../../transport/courses';

/** A listing item with only what a builder or an AI agent usually needs, under the listing's names. */
const simplifiedCourse = (course: IDataObject) =>
	definedOnly(Object.fromEntries(SIMPLIFIED_COURSE_FIELDS.map((field) => [field, course[field]])));

const outputForm: OutputForm = {
	records: 'courses',
	simplifiedFields: SIMPLIFIED_COURSE_FIELDS,
	selectableFields: LISTING_ITEM_FIELDS,
};

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	...outputProperties(outputForm),
	optionsCollection([
		{
			displayName: 'Offset',
			name: 'offset',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'How many courses to skip from the start of the catalog',
		},
		...pagingCeilingProperties('courses'),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['getMany'] } },
	properties,
);

const inputSchema = z.object({
	returnAll: z.boolean(),
	limit: z.number().int('must be a whole number').positive('must be at least 1'),
	options: z
		.object({
			offset: z.number().int('must be a whole number').nonnegative('cannot be negative').optional(),
			...pagingCeilingShape,
		})
		.strict(),
});

const outputSchema = outputChoiceSchema(outputForm);

type GetManyInput = z.infer<typeof inputSchema> & { output: OutputChoice };

export function prepare(fns: IExecuteFunctions, itemIndex: number): GetManyInput {
	const returnAll = fns.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const input = parseItemInput(
		fns.getNode(),
		itemIndex,
		inputSchema,
		{
			returnAll,
			limit: returnAll ? 1 : fns.getNodeParameter('limit', itemIndex, 50),
			options: fns.getNodeParameter('options', itemIndex, {}),
		},
		'Invalid input',
		properties,
	);
	const output = readOutputChoice(fns, itemIndex, outputSchema, properties);
	return { ...input, output };
}

export async function execute(
	run: LmsRun,
	input: GetManyInput,
	itemIndex: number,
): Promise<IDataObject[]> {
	const courses: IDataObject[] = [];
	const wanted = input.returnAll ? Infinity : input.limit;
	await forEachCoursePage(
		run,
		itemIndex,
		{
			offset: input.options.offset ?? 0,
			pageSize: Math.min(PAGE_SIZE, wanted),
			limits: pagingLimitsFrom(input.options),
			deadline: run.deadline(READ_DEADLINE_MS),
		},
		(page) => {
			for (const course of page) {
				if (courses.length >= wanted) return false;
				courses.push(shapeRecord(course, input.output, simplifiedCourse));
			}
			return courses.length < wanted;
		},
	);
	return courses;
}
