import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { openLmsRun } from '../transport';
import { searchCatalog } from '../transport/courses';

/** The course picker: courses of the catalog whose name or external id holds the filter. */
export async function searchCourses(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const run = await openLmsRun(this);
	const offset = Number(paginationToken ?? 0) || 0;
	const { matches, nextOffset } = await searchCatalog(run, { filter, offset });
	return {
		results: matches.map((course) => ({
			name: `${course.name} (${course.externalId})`,
			value: course.externalId,
			url: course.url,
		})),
		paginationToken: nextOffset === undefined ? undefined : String(nextOffset),
	};
}
