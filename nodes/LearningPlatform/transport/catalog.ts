import type { IDataObject } from 'n8n-workflow';

import type { CourseValues } from './courseContract';
import { EXTERNAL_ID_FIELD, valuesFromListing } from './courseContract';

/** What the index keeps of a course: its platform id and the values the listing carries. */
export interface IndexedCourse {
	id?: string;
	listed: CourseValues;
}

export type CatalogReader = (visit: (courses: IDataObject[]) => boolean) => Promise<void>;

/** Built once per execution, listed fields only: N courses cost one bounded catalog walk, not N. */
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
