import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { forEachCoursePage, indexedCourse } from '../transport/courses';
import { READ_DEADLINE_MS } from '../transport';
import { openLmsRun } from '../transport/run';

/** Pages a search reads at most per call, so the editor's list answers quickly. */
const SEARCH_PAGES_PER_CALL = 5;

const SEARCH_MATCHES_PER_CALL = 50;

/** The course picker. The platform has no search: reads a few pages for matches and says where to go on. */
export async function searchCourses(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const run = await openLmsRun(this);
	const offset = Number(paginationToken ?? 0) || 0;
	const wanted = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	let position = offset;
	let pages = 0;
	let more = false;
	await forEachCoursePage(
		run,
		0,
		{ offset, deadline: run.deadline(READ_DEADLINE_MS) },
		(courses) => {
			pages++;
			position += courses.length;
			for (const entry of courses.map(indexedCourse)) {
				if (!entry) continue;
				const [externalId, { listed }] = entry;
				const listedName = listed.name;
				const name = typeof listedName === 'string' ? listedName : externalId;
				if (wanted && !`${name} ${externalId}`.toLowerCase().includes(wanted)) continue;
				const url = listed.url;
				results.push({
					name: `${name} (${externalId})`,
					value: externalId,
					url: typeof url === 'string' ? url : undefined,
				});
			}
			more = pages >= SEARCH_PAGES_PER_CALL || results.length >= SEARCH_MATCHES_PER_CALL;
			return !more;
		},
	);
	return { results, paginationToken: more ? String(position) : undefined };
}
