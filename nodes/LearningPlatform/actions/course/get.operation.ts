import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput, safeId } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport';
import { getCourse } from '../../transport/courses';
import { coursePicker, pickedCourse } from '../common/form';

const properties: INodeProperties[] = [
	coursePicker(
		'The course to get. The catalog is read once per execution, whatever the number of items.',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['get'] } },
	properties,
);

const inputSchema = z.object({ externalId: safeId });

type GetInput = z.infer<typeof inputSchema>;

export function prepare(fns: IExecuteFunctions, itemIndex: number): GetInput {
	return parseItemInput(
		fns.getNode(),
		itemIndex,
		inputSchema,
		{ externalId: pickedCourse(fns, itemIndex) },
		'Invalid input',
		properties,
	);
}

export async function execute(
	run: LmsRun,
	input: GetInput,
	itemIndex: number,
): Promise<IDataObject> {
	return await getCourse(run, itemIndex, input.externalId, run.deadline(READ_DEADLINE_MS));
}
