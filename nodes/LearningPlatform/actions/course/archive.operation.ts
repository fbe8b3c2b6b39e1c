import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput } from '../../../shared/validation';
import type { WriteOptions } from '../common/writeOptions';
import { postWrite, writeOptions, writeOptionsSchema } from '../common/writeOptions';
import { archiveBodyFrom } from './archiveBody';
import { forEachCoursePage } from './listCourses';
import { COURSES_PATH } from './upsert.operation';

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
	externalId: z.string({ required_error: 'is required' }).trim().min(1, 'is required'),
	options: writeOptionsSchema,
});

type ArchiveInput = z.infer<typeof inputSchema>;

export function prepare(this: IExecuteFunctions, itemIndex: number): ArchiveInput {
	return parseItemInput(this.getNode(), itemIndex, inputSchema, {
		externalId: this.getNodeParameter('externalId', itemIndex),
		options: this.getNodeParameter('options', itemIndex, {}),
	});
}

export async function findCourse(
	this: IExecuteFunctions,
	itemIndex: number,
	externalId: string,
): Promise<IDataObject | undefined> {
	let found: IDataObject | undefined;
	await forEachCoursePage.call(this, itemIndex, {}, (page) => {
		found = page.find(
			(course) =>
				String(
					course.external_id ??
						(course.additional_metadata as IDataObject | undefined)?.external_id,
				) === externalId,
		);
		return found === undefined;
	});
	return found;
}

export async function execute(
	this: IExecuteFunctions,
	input: ArchiveInput,
	itemIndex: number,
): Promise<IDataObject> {
	const course = await findCourse.call(this, itemIndex, input.externalId);
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
	const options: WriteOptions = input.options;
	return await postWrite.call(this, itemIndex, {
		path: COURSES_PATH,
		body: archiveBodyFrom(course),
		action: `Archiving course "${input.externalId}"`,
		options,
		echo: { externalId: input.externalId, courseId: course.id },
	});
}
