import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput, safeId, typeMessages, additionalFields } from '../../../shared/form/input';
import type { PoolPlace } from '../../../shared/pacing/time';
import type { LmsRun } from '../../transport';
import { flexibleDate } from '../../transport/formats';
import type { AssignmentOperation } from '../../transport/assignments';
import { sendAssignment } from '../../transport/assignments';
import {
	coursePicker,
	readCourseWrite,
	writeOptions,
	writeOptionsSchema,
	writeSettings,
} from '../fields';

export const DATES: INodeProperties = additionalFields([
	{
		displayName: 'Assigned Date',
		name: 'assignedDate',
		type: 'string',
		default: '',
		placeholder: 'YYYY-MM-DD',
		description:
			'The day of the assignment, as YYYY-MM-DD; the platform uses the day it receives it otherwise',
	},
	{
		displayName: 'Due Date',
		name: 'dueDate',
		type: 'string',
		default: '',
		placeholder: 'YYYY-MM-DD',
		description: 'The day by which the learner should complete the course, as YYYY-MM-DD',
	},
]);

export function readDates(fns: IExecuteFunctions, itemIndex: number): IDataObject {
	const additional = fns.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return {
		dueDate: additional.dueDate || undefined,
		assignedDate: additional.assignedDate || undefined,
	};
}

export function assignmentProperties(
	own: INodeProperties[] = [],
	options: INodeProperties = writeOptions(),
): INodeProperties[] {
	return [
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			required: true,
			default: '',
			description: "The learner's email address on the platform",
		},
		coursePicker('The course. Only content created through the API can be assigned or completed.'),
		...own,
		options,
	];
}

export const baseSchema = z.object({
	email: z
		.string(typeMessages('is required', undefined))
		.trim()
		.max(254, 'must be at most 254 characters')
		.email('must be an email address'),
	externalId: safeId,
	dueDate: flexibleDate.optional(),
	assignedDate: flexibleDate.optional(),
	endDate: flexibleDate.optional(),
	options: writeOptionsSchema,
});

export type AssignmentInput = z.infer<typeof baseSchema> & { operation: AssignmentOperation };

export function assignmentOperation(
	operation: AssignmentOperation,
	own: INodeProperties[] = [],
	readOwn: (fns: IExecuteFunctions, itemIndex: number) => IDataObject = () => ({}),
) {
	const form = assignmentProperties(own);
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['assignment'], operation: [operation] } },
			form,
		),
		prepare(fns: IExecuteFunctions, itemIndex: number) {
			const input = parseItemInput(
				fns.getNode(),
				itemIndex,
				operation === 'complete' ? baseSchema.required({ endDate: true }) : baseSchema,
				{
					email: fns.getNodeParameter('email', itemIndex),
					...readCourseWrite(fns, itemIndex),
					...readOwn(fns, itemIndex),
				},
				'Invalid input',
				form,
			);
			return { ...input, operation };
		},
		async execute(run: LmsRun, input: AssignmentInput, itemIndex: number, place: PoolPlace) {
			const { options, ...assignment } = input;
			return await sendAssignment(run, itemIndex, assignment, writeSettings(run, options, place));
		},
	};
}
