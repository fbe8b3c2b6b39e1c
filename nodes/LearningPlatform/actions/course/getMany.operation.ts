import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection } from '../../../shared/form/input';
import type { OutputChoice, OutputForm } from '../../../shared/form/output';
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
} from '../../../shared/form/output';
import type { LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport';
import {
	forEachCoursePage,
	LISTED_FIELDS,
	LISTING_ITEM_FIELDS,
	PAGE_SIZE,
} from '../../transport/courses';
import { operationForm } from '../operationForm';

/** The listing fields a simplified course keeps: its id and what the field table reads under its own name. */
export const SIMPLIFIED_COURSE_FIELDS = [
	'id',
	...LISTING_ITEM_FIELDS.filter((name) => LISTED_FIELDS.includes(name)),
] as const;

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

const form = operationForm(
	['course', 'getMany'],
	properties,
	z.object({
		returnAll: z.boolean(),
		limit: z.number().int('must be a whole number').positive('must be at least 1'),
		options: z
			.object({
				offset: z
					.number()
					.int('must be a whole number')
					.nonnegative('cannot be negative')
					.optional(),
				...pagingCeilingShape,
			})
			.strict(),
	}),
	(fns, itemIndex) => {
		const returnAll = fns.getNodeParameter('returnAll', itemIndex, false) as boolean;
		return {
			returnAll,
			limit: returnAll ? 1 : fns.getNodeParameter('limit', itemIndex, 50),
			options: fns.getNodeParameter('options', itemIndex, {}),
		};
	},
);

export const description = form.description;

const outputSchema = outputChoiceSchema(outputForm);

type GetManyInput = ReturnType<typeof form.prepare> & { output: OutputChoice };

export function prepare(fns: IExecuteFunctions, itemIndex: number): GetManyInput {
	const input = form.prepare(fns, itemIndex);
	return { ...input, output: readOutputChoice(fns, itemIndex, outputSchema, properties) };
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
