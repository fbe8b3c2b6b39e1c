import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput, safeId } from '../../../shared/validation';
import { operationDeadline } from '../../transport';
import { COURSES_PATH, findCourse } from '../../transport/courses';
import { postWrite } from '../../transport/transactions';
import { writeOptions, writeOptionsSchema } from '../common/writeOptions';
import { archiveBodyFrom } from './archiveBody';

const properties: INodeProperties[] = [
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		required: true,
		default: '',
		description:
			'The course to archive. Its current metadata is read from the catalog and sent back with status archived. Archived content cannot be made active again.',
	},
	writeOptions('course', ['archive']),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['archive'] } },
	properties,
);

const inputSchema = z.object({
	externalId: safeId,
	options: writeOptionsSchema,
});

type ArchiveInput = z.infer<typeof inputSchema>;

export function prepare(this: IExecuteFunctions, itemIndex: number): ArchiveInput {
	return parseItemInput(this.getNode(), itemIndex, inputSchema, {
		externalId: this.getNodeParameter('externalId', itemIndex),
		options: this.getNodeParameter('options', itemIndex, {}),
	});
}

export async function execute(
	this: IExecuteFunctions,
	input: ArchiveInput,
	itemIndex: number,
): Promise<IDataObject> {
	// One budget for the whole item: the catalog lookup, the write and the wait.
	const deadline = operationDeadline.call(this, input.options.timeout * 1000);
	const course = await findCourse.call(this, itemIndex, input.externalId, deadline);
	if (!course) {
		throw new NodeOperationError(
			this.getNode(),
			`No course with external ID "${input.externalId}" was found`,
			{
				itemIndex,
				description:
					"Archive looks the course up in the catalog of this OAuth2 app's source. Check the external ID, and that the course was created through the API.",
			},
		);
	}
	if (course.status === 'archived') {
		return {
			externalId: input.externalId,
			courseId: course.id,
			status: 'skipped',
			message: 'The course is already archived',
		};
	}
	return await postWrite.call(this, itemIndex, {
		path: COURSES_PATH,
		body: archiveBodyFrom(course),
		action: `Archiving course "${input.externalId}"`,
		waitForCompletion: input.options.waitForCompletion,
		deadline,
		echo: { externalId: input.externalId, courseId: course.id },
	});
}
