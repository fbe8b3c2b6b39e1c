import { NodeOperationError } from 'n8n-workflow';

import type { Deadline } from '../../../shared/pacing/time';
import type { IndexedCourse, LmsRun } from '../../transport';
import { catalogEntry } from '../../transport/courses';

/** Archive and Get look the course up in the catalog read once per execution. */
export async function findCourse(
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
