import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { safeId } from '../../../shared/items/input';
import type { Deadline } from '../../../shared/pacing/time';
import type { IndexedCourse, LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport/run';
import { catalogEntry } from '../../transport/courses';
import { coursePicker, pickedCourse } from '../common/form';
import { operationForm } from '../common/operationForm';

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
	const found = await listedCourse(run, itemIndex, input.externalId, deadline, 'Get');
	return { id: found.id, ...found.listed };
}

export async function listedCourse(
	run: LmsRun,
	itemIndex: number,
	externalId: string,
	deadline: Deadline,
	operation: 'Get' | 'Archive',
): Promise<IndexedCourse> {
	const found = await catalogEntry(run, itemIndex, externalId, deadline);
	if (found) return found;
	throw new NodeOperationError(
		run.fns.getNode(),
		`No course with external ID "${externalId}" was found`,
		{
			itemIndex,
			description: `${operation} looks the course up in the catalog of this OAuth2 app's source. Check the external ID, and that the course was created through the API.`,
		},
	);
}
