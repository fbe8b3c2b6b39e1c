import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { safeId } from '../../../shared/form/input';
import type { LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport';
import { coursePicker, pickedCourse } from '../fields';
import { operationForm } from '../operationForm';
import { findCourse } from './findCourse';

export const { description, prepare } = operationForm(
	['course', 'get'],
	[
		coursePicker(
			'The course to get. The catalog is read once per execution, whatever the number of items.',
		),
	],
	z.object({ externalId: safeId }),
	(fns, itemIndex) => ({ externalId: pickedCourse(fns, itemIndex) }),
);

export async function execute(
	run: LmsRun,
	input: { externalId: string },
	itemIndex: number,
): Promise<IDataObject> {
	const deadline = run.deadline(READ_DEADLINE_MS);
	const found = await findCourse(run, itemIndex, input.externalId, deadline, 'Get');
	return { id: found.id, ...found.listed };
}
