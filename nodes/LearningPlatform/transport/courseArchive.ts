import type { IDataObject } from 'n8n-workflow';

import type { IndexedCourse, LmsRun, WriteSettings } from './index';
import { EXTERNAL_ID_FIELD, postWrite } from './index';
import type { CourseValues } from './courses';
import { COURSES_PATH, courseBody, mergeWithListing, STATUS_FIELD } from './courses';

/** The platform has no archive call: an archive is an upsert of the whole course, status archived. */

/** An update must carry the whole course: the listing plus `given`, naming what will be cleared. */
export async function archiveListedCourse(
	run: LmsRun,
	itemIndex: number,
	externalId: string,
	current: IndexedCourse,
	given: CourseValues,
	write: WriteSettings,
): Promise<IDataObject> {
	const { values, ...report } = mergeWithListing(
		{ ...given, [EXTERNAL_ID_FIELD]: externalId },
		current.listed,
	);
	const output = await postWrite(run, itemIndex, {
		path: COURSES_PATH,
		body: courseBody({ ...values, [STATUS_FIELD]: 'archived' }),
		action: `Archiving course "${externalId}"`,
		...write,
		echo: { externalId, courseId: current.id },
	});
	return { ...output, ...report };
}
