import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Deadline } from '../../shared/deadline';
import type { PagingLimits } from '../../shared/paging';
import { DEFAULT_PAGING_LIMITS, PageGuard, PagingError } from '../../shared/paging';
import { lmsRequest } from './index';
import { coursePageShape } from './shapes';

export const COURSES_PATH = '/api/developer/v2/courses.json';

/** The list's largest page is undocumented: ask for 100 and page by what comes back. */
export const PAGE_SIZE = 100;

export interface CatalogWalk {
	offset?: number;
	pageSize?: number;
	limits?: PagingLimits;
	deadline: Deadline;
}

/** The id a course is known by in a walk: the platform's id, else its external id. */
function courseIdOf(course: IDataObject): string | undefined {
	const id = course.id ?? externalIdOf(course);
	return id === undefined || id === null ? undefined : String(id);
}

export function externalIdOf(course: IDataObject): string | undefined {
	const id =
		course.external_id ?? (course.additional_metadata as IDataObject | undefined)?.external_id;
	return id === undefined || id === null ? undefined : String(id);
}

/**
 * Walks the catalog page by page from `offset`, handing each page's new courses to `visit`,
 * which returns false to stop. Only one page is held at a time. It advances by what the server
 * really returned, and stops with an error on a page that repeats or past the paging ceilings,
 * so a server that ignores the offset or claims an endless catalog cannot keep it going.
 */
export async function forEachCoursePage(
	this: IExecuteFunctions,
	itemIndex: number,
	{ offset = 0, pageSize = PAGE_SIZE, limits = DEFAULT_PAGING_LIMITS, deadline }: CatalogWalk,
	visit: (courses: IDataObject[]) => boolean | Promise<boolean>,
): Promise<void> {
	const guard = new PageGuard('Listing courses', limits);
	let position = offset;
	for (;;) {
		const page = await lmsRequest.call(this, itemIndex, {
			method: 'GET',
			path: COURSES_PATH,
			qs: { offset: position, limit: pageSize, return_total_count: true },
			safeToRepeat: true,
			action: 'Listing courses',
			deadline,
			answer: { schema: coursePageShape, is: 'a page of courses' },
		});
		const courses = page.data as IDataObject[];
		if (courses.length === 0) return;
		let fresh: boolean[];
		try {
			fresh = guard.admit(courses.map(courseIdOf));
		} catch (error) {
			throw new NodeOperationError(this.getNode(), error as Error, {
				itemIndex,
				description: error instanceof PagingError ? error.hint : undefined,
			});
		}
		if ((await visit(courses.filter((_, i) => fresh[i]))) === false) return;
		position += courses.length;
		if (page.total_count !== undefined && position >= page.total_count) return;
	}
}

/** The catalog entry with this external id, read page by page (one page in memory). */
export async function findCourse(
	this: IExecuteFunctions,
	itemIndex: number,
	externalId: string,
	deadline: Deadline,
): Promise<IDataObject | undefined> {
	let found: IDataObject | undefined;
	await forEachCoursePage.call(this, itemIndex, { deadline }, (courses) => {
		found = courses.find((course) => externalIdOf(course) === externalId);
		return found === undefined;
	});
	return found;
}
