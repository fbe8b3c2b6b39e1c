import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { flexibleDate, parseItemInput, safeId } from '../../../shared/validation';
import type { WriteOptions } from '../common/writeOptions';
import { sendWrite, writeOptions, writeOptionsSchema } from '../common/writeOptions';
import type { ItemOperation } from '../../../shared/operation';

export const USER_COURSES_PATH = '/api/developer/v2/user_courses.json';

/** The API's status value for each operation (`Started` is capitalised, as documented). */
export const STATUS_BY_OPERATION = {
	assign: 'assigned',
	withdraw: 'withdraw',
	complete: 'completed',
	start: 'Started',
} as const;

export type AssignmentOperation = keyof typeof STATUS_BY_OPERATION;

/** The fields every assignment operation has, then its own, then the write options. */
function assignmentProperties(
	operation: AssignmentOperation,
	own: INodeProperties[] = [],
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
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			required: true,
			default: '',
			description:
				'External ID of the course. Only content created through the API can be assigned or completed.',
		},
		...own,
		writeOptions('assignment', [operation]),
	];
}

const baseSchema = z.object({
	email: z
		.string({ required_error: 'is required' })
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

/** Reads and checks one item; `extra` holds the operation's own parameters. */
function prepareAssignment(
	this: IExecuteFunctions,
	itemIndex: number,
	operation: AssignmentOperation,
	extra: IDataObject = {},
): AssignmentInput {
	const schema = operation === 'complete' ? baseSchema.required({ endDate: true }) : baseSchema;
	const input = parseItemInput(this.getNode(), itemIndex, schema, {
		email: this.getNodeParameter('email', itemIndex),
		externalId: this.getNodeParameter('externalId', itemIndex),
		...extra,
		options: this.getNodeParameter('options', itemIndex, {}),
	});
	return { ...input, operation };
}

async function sendAssignment(
	this: IExecuteFunctions,
	input: AssignmentInput,
	itemIndex: number,
): Promise<IDataObject> {
	const status = STATUS_BY_OPERATION[input.operation];
	const body: IDataObject = { email_id: input.email, external_id: input.externalId, status };
	if (input.dueDate) body.due_date = input.dueDate;
	if (input.assignedDate) body.assigned_date = input.assignedDate;
	if (input.endDate) body.end_date = input.endDate;
	const options: WriteOptions = input.options;
	return await sendWrite.call(this, itemIndex, options, {
		path: USER_COURSES_PATH,
		body,
		action: `Setting "${input.externalId}" to ${status} for ${input.email}`,
		echo: { email: input.email, externalId: input.externalId, assignmentStatus: status },
	});
}

/** Builds an assignment operation: shared fields and body, plus the operation's own parameters. */
export function assignmentOperation(
	operation: AssignmentOperation,
	own: INodeProperties[] = [],
	readOwn: (this: IExecuteFunctions, itemIndex: number) => IDataObject = () => ({}),
): ItemOperation<AssignmentInput> {
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['assignment'], operation: [operation] } },
			assignmentProperties(operation, own),
		),
		prepare(this: IExecuteFunctions, itemIndex: number) {
			return prepareAssignment.call(this, itemIndex, operation, readOwn.call(this, itemIndex));
		},
		async execute(this: IExecuteFunctions, input: AssignmentInput, itemIndex: number) {
			return await sendAssignment.call(this, input, itemIndex);
		},
	};
}
