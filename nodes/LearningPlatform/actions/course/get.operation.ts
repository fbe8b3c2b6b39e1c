import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { safeId } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport';
import { getCourse } from '../../transport/courses';
import { coursePicker, operationForm, pickedCourse } from '../common/form';

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
	return await getCourse(run, itemIndex, input.externalId, run.deadline(READ_DEADLINE_MS));
}
