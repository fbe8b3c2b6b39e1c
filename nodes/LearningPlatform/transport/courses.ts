import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { Deadline } from '../../shared/pacing/time';
import type { PagingLimits } from '../../shared/pacing/paging';
import { DEFAULT_PAGING_LIMITS, PageGuard, PagingError } from '../../shared/pacing/paging';
import type { CourseValues } from './courseContract';
import {
	courseBody,
	EXTERNAL_ID_FIELD,
	mergeWithListing,
	STATUS_FIELD,
	valuesFromListing,
} from './courseContract';
import type { LmsRun } from './index';
import { lmsRequest } from './index';
import type { WriteSettings } from './transactions';
import { postWrite } from './transactions';

/** One page of the course list: `{data: [...], total_count}`; what the node relies on, the rest passed through. */
const coursePageShape = z
	.object({
		data: z.array(z.record(z.string(), z.unknown())),
		total_count: z.number().int().nonnegative().optional(),
	})
	.passthrough();

export const COURSES_PATH = '/api/developer/v2/courses.json';

/** The list's largest page is undocumented: ask for 100 and page by what comes back. */
export const PAGE_SIZE = 100;

export interface CatalogWalk {
	offset?: number;
	pageSize?: number;
	limits?: PagingLimits;
	deadline: Deadline;
}

const textOf = (id: unknown) => (id === undefined || id === null ? undefined : String(id));

/** Walks the catalog one page at a time; stops on a repeated page or past the paging ceilings. */
export async function forEachCoursePage(
	run: LmsRun,
	itemIndex: number,
	{ offset = 0, pageSize = PAGE_SIZE, limits = DEFAULT_PAGING_LIMITS, deadline }: CatalogWalk,
	visit: (courses: IDataObject[]) => boolean | Promise<boolean>,
): Promise<{ endedEarly?: string }> {
	const guard = new PageGuard('Listing courses', limits);
	let position = offset;
	let total: number | undefined;
	for (;;) {
		let bytes = 0;
		const page = await lmsRequest(run, itemIndex, {
			method: 'GET',
			path: COURSES_PATH,
			qs: { offset: position, limit: pageSize, return_total_count: true },
			safeToRepeat: true,
			action: 'Listing courses',
			deadline,
			answer: { schema: coursePageShape, is: 'a page of courses' },
			measured: (size) => (bytes = size),
		});
		const courses = page.data as IDataObject[];
		let fresh: boolean[];
		try {
			guard.read(bytes);
			if (courses.length === 0) {
				return total !== undefined && position < total
					? { endedEarly: `the listing ended at ${position} of the ${total} courses it announced` }
					: {};
			}
			fresh = guard.admit(courses.map((course) => textOf(course.id ?? course[EXTERNAL_ID_FIELD])));
		} catch (error) {
			throw new NodeOperationError(run.fns.getNode(), error as Error, {
				itemIndex,
				description: error instanceof PagingError ? error.hint : undefined,
			});
		}
		if ((await visit(courses.filter((_, i) => fresh[i]))) === false) return {};
		position += courses.length;
		if (page.total_count !== undefined) total = Math.max(total ?? 0, page.total_count);
		if (total !== undefined && position >= total) return {};
	}
}

export interface IndexedCourse {
	id?: string;
	listed: CourseValues;
}

export function indexedCourse(course: IDataObject): [string, IndexedCourse] | undefined {
	const listed = valuesFromListing(course);
	const externalId = listed[EXTERNAL_ID_FIELD];
	if (typeof externalId !== 'string' && typeof externalId !== 'number') return undefined;
	return [String(externalId), { id: textOf(course.id), listed }];
}

/** Built once per execution, listed fields only: N courses cost one bounded catalog walk, not N. */
export type CatalogIndex = { byExternalId?: Promise<Map<string, IndexedCourse>> };

async function catalogEntry(
	run: LmsRun,
	itemIndex: number,
	externalId: string,
	deadline: Deadline,
): Promise<IndexedCourse | undefined> {
	run.catalog.byExternalId ??= (async () => {
		const index = new Map<string, IndexedCourse>();
		await forEachCoursePage(run, itemIndex, { deadline }, (courses) => {
			for (const entry of courses.map(indexedCourse)) if (entry) index.set(...entry);
			return true;
		});
		return index;
	})();
	return (await run.catalog.byExternalId).get(externalId);
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

/** With `keepCurrentValues`, empty fields come from the listing; the output names kept and cleared. */
export async function upsertCourse(
	run: LmsRun,
	itemIndex: number,
	given: CourseValues,
	{ keepCurrentValues, ...write }: WriteSettings & { keepCurrentValues: boolean },
): Promise<IDataObject> {
	const externalId = String(given[EXTERNAL_ID_FIELD]);
	let values = given;
	const report: IDataObject = {};
	if (keepCurrentValues) {
		const current = await catalogEntry(run, itemIndex, externalId, write.deadline);
		if (current) {
			const merged = mergeWithListing(given, current.listed);
			values = merged.values;
			report.keptFields = merged.kept;
			report.clearedFields = merged.cleared;
		} else {
			report.keptFields = [];
			report.keepCurrentValues = 'The course is not in the catalog yet: there was nothing to keep.';
		}
	}
	const output = await postWrite(run, itemIndex, {
		path: COURSES_PATH,
		body: courseBody(values),
		action: `Upserting course "${externalId}"`,
		...write,
		echo: { externalId },
	});
	return { ...output, ...report };
}

/** An update must carry the whole course: the listing plus `given`, naming what will be cleared. */
export async function archiveListedCourse(
	run: LmsRun,
	itemIndex: number,
	externalId: string,
	current: IndexedCourse,
	given: CourseValues,
	write: WriteSettings,
): Promise<IDataObject> {
	const merged = mergeWithListing({ ...given, [EXTERNAL_ID_FIELD]: externalId }, current.listed);
	const output = await postWrite(run, itemIndex, {
		path: COURSES_PATH,
		body: courseBody({ ...merged.values, [STATUS_FIELD]: 'archived' }),
		action: `Archiving course "${externalId}"`,
		...write,
		echo: { externalId, courseId: current.id },
	});
	return { ...output, keptFields: merged.kept, clearedFields: merged.cleared };
}
