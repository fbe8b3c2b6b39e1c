import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import {
	pagingCeilingProperties,
	pagingCeilingShape,
	pagingLimitsFrom,
	returnAllAndLimit,
} from '../../../shared/pacing/paging';
import { parseItemInput } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport';
import { forEachCoursePage, PAGE_SIZE } from '../../transport/courses';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Offset',
				name: 'offset',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'How many courses to skip from the start of the catalog',
			},
			...pagingCeilingProperties('courses'),
		],
	},
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

type GetManyInput = z.infer<typeof inputSchema>;

export function prepare(fns: IExecuteFunctions, itemIndex: number): GetManyInput {
	const returnAll = fns.getNodeParameter('returnAll', itemIndex, false) as boolean;
	return parseItemInput(
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
				courses.push(course);
			}
			return courses.length < wanted;
		},
	);
	return courses;
}
