import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parseItemInput } from '../../../shared/validation';
import { sendWrite, writeOptions, writeOptionsSchema } from '../common/writeOptions';
import type { WriteOptions } from '../common/writeOptions';
import { courseAdditionalFields, CURRENCIES } from './courseFields';
import { COURSES_PATH } from '../../transport/courses';
import type { CourseInput } from './courseBody';
import { courseBody, courseInputSchema } from './courseBody';

const properties: INodeProperties[] = [
	{
		displayName:
			'The platform replaces the whole course on every upsert: fields left out are cleared, and groups or channels not listed are removed',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		required: true,
		default: '',
		description: 'Your own ID for the course. Sending an existing one updates that course.',
	},
	{ displayName: 'Name', name: 'name', type: 'string', required: true, default: '' },
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://learn.example.com/courses/onboarding',
	},
	{
		displayName: 'Prices',
		name: 'prices',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add price',
		description: 'Leave empty for free content. Prices are replaced on every update.',
		options: [
			{
				displayName: 'Price',
				name: 'price',
				values: [
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 2 },
						default: 0,
					},
					{
						displayName: 'Currency',
						name: 'currency',
						type: 'options',
						options: CURRENCIES,
						default: 'USD',
					},
				],
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		options: courseAdditionalFields,
	},
	writeOptions('course', ['upsert']),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['upsert'] } },
	properties,
);

interface UpsertInput {
	course: CourseInput;
	options: WriteOptions;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): UpsertInput {
	const course = parseItemInput(this.getNode(), itemIndex, courseInputSchema, {
		externalId: this.getNodeParameter('externalId', itemIndex),
		name: this.getNodeParameter('name', itemIndex),
		url: this.getNodeParameter('url', itemIndex),
		prices: this.getNodeParameter('prices', itemIndex, {}),
		additionalFields: this.getNodeParameter('additionalFields', itemIndex, {}),
	});
	const options = parseItemInput(
		this.getNode(),
		itemIndex,
		writeOptionsSchema,
		this.getNodeParameter('options', itemIndex, {}),
		'Invalid options',
	);
	return { course, options };
}

export async function execute(
	this: IExecuteFunctions,
	input: UpsertInput,
	itemIndex: number,
): Promise<IDataObject> {
	return await sendWrite.call(this, itemIndex, input.options, {
		path: COURSES_PATH,
		body: courseBody(input.course),
		action: `Upserting course "${input.course.externalId}"`,
		echo: { externalId: input.course.externalId },
	});
}
