import type { IDataObject } from 'n8n-workflow';

import type { CourseValues } from './courseContract';
import { EXTERNAL_ID_FIELD, valuesFromListing } from './courseContract';

/** What the index keeps of a course: its platform id and the values the listing carries. */
export interface IndexedCourse {
	id?: string;
	listed: CourseValues;
}

/** Reads the catalog page by page, handing each page's courses to `visit`. */
export type CatalogReader = (visit: (courses: IDataObject[]) => boolean) => Promise<void>;

/**
 * The catalog by external id, built once per execution on first use and shared by every item:
 * archiving or keeping current values of N courses costs one walk of the catalog, not N.
 * It keeps only the fields the listing carries (not whole pages), and the walk itself is
 * bounded by the paging ceilings, so its memory is bounded too.
 */
export class CatalogIndex {
	private index: Promise<Map<string, IndexedCourse>> | undefined;

	async lookup(externalId: string, read: CatalogReader): Promise<IndexedCourse | undefined> {
		this.index ??= build(read);
		return (await this.index).get(externalId);
	}
}

async function build(read: CatalogReader): Promise<Map<string, IndexedCourse>> {
	const index = new Map<string, IndexedCourse>();
	await read((courses) => {
		for (const course of courses) {
			const listed = valuesFromListing(course);
			const externalId = listed[EXTERNAL_ID_FIELD];
			if (typeof externalId !== 'string' && typeof externalId !== 'number') continue;
			index.set(String(externalId), {
				id: course.id === undefined || course.id === null ? undefined : String(course.id),
				listed,
			});
		}
		return true;
	});
	return index;
}
