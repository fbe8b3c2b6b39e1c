import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseItemInput } from '../../../shared/items/input';
import type { CourseValues } from '../../transport/courseContract';
import { courseValuesSchema } from '../../transport/courseContract';
import { describeCourseIssues, externalIdOf, parseCourseJson } from './courseJson';
import { additionalFieldsProperty, topProperties } from './courseForm';
import { coursePicker, pickedCourse } from './coursePicker';

/** Create or Update and Sync Catalog take a course on the form or as the platform's object. */
export function courseInputProperties(): INodeProperties[] {
	const fields = { show: { inputMode: ['fields'] } };
	return [
		{
			displayName: 'Input Mode',
			name: 'inputMode',
			type: 'options',
			options: [
				{
					name: 'Fields',
					value: 'fields',
					description: 'Map each course field on the form',
				},
				{
					name: 'JSON',
					value: 'json',
					description:
						"Give the whole course as the platform's own object, with its API field names (external_id, prices_data, content_type, …)",
				},
			],
			default: 'fields',
		},
		{
			displayName: 'Course',
			name: 'course',
			type: 'json',
			default: '{\n  "external_id": "",\n  "name": "",\n  "url": "",\n  "prices_data": []\n}',
			required: true,
			description:
				"The course as an object with the platform's API field names (snake_case), or text holding one, e.g. the whole item when the previous step built it. Unknown keys are refused; null or empty values count as not given.",
			displayOptions: { show: { inputMode: ['json'] } },
		},
		{
			...coursePicker('Your own ID for the course. Sending an existing one updates that course.', {
				displayName: 'External ID',
				firstMode: 'id',
			}),
			displayOptions: fields,
		},
		...topProperties()
			.filter((p) => p.name !== 'externalId')
			.map((p) => ({ ...p, displayOptions: fields })),
		{ ...additionalFieldsProperty('upsert'), displayOptions: fields },
	];
}

const valuesSchema = courseValuesSchema('upsert', true);

const labelled = [...topProperties(), additionalFieldsProperty('upsert')];

/** One item's course, read and checked; a bad one throws naming the item and each field. */
export function readCourse(fns: IExecuteFunctions, itemIndex: number): CourseValues {
	const mode = fns.getNodeParameter('inputMode', itemIndex, 'fields') as string;
	if (mode === 'json') {
		const result = parseCourseJson(fns.getNodeParameter('course', itemIndex));
		if (result.ok) return result.values;
		const lines = describeCourseIssues(result.issues);
		throw new NodeOperationError(
			fns.getNode(),
			`Invalid course on item ${itemIndex}${result.externalId ? ` ("${result.externalId}")` : ''}: ${lines.join('; ')}`,
			{ itemIndex, description: lines.map((line) => `• ${line}`).join('\n') },
		);
	}
	return parseItemInput(
		fns.getNode(),
		itemIndex,
		valuesSchema,
		{
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
}

/** The external id even of an invalid item, so Sync Catalog can count the row as present. */
export function readableExternalId(fns: IExecuteFunctions, itemIndex: number): string | undefined {
	try {
		const mode = fns.getNodeParameter('inputMode', itemIndex, 'fields') as string;
		const raw =
			mode === 'json'
				? externalIdOf(fns.getNodeParameter('course', itemIndex))
				: pickedCourse(fns, itemIndex);
		if (typeof raw === 'number') return String(raw);
		return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
	} catch {
		return undefined;
	}
}
