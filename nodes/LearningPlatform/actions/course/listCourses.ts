import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { lmsRequest } from '../../transport';
import { COURSES_PATH } from './upsert.operation';

/** The list's largest page is undocumented; 100 is what it is known to serve. */
export const PAGE_SIZE = 100;

interface CoursePage {
	data?: IDataObject[];
	total_count?: number;
}

/**
 * Walks the catalog page by page from `offset`, handing each page to `visit`, which returns
 * false to stop. Only one page is held at a time. Advancing by what the server really returned
 * keeps paging right even if it serves smaller pages than asked for.
 */
export async function forEachCoursePage(
	this: IExecuteFunctions,
	itemIndex: number,
	{ offset = 0, pageSize = PAGE_SIZE }: { offset?: number; pageSize?: number },
	visit: (page: IDataObject[]) => boolean | Promise<boolean>,
): Promise<void> {
	let position = offset;
	for (;;) {
		const page = (await lmsRequest.call(this, itemIndex, {
			method: 'GET',
			path: COURSES_PATH,
			qs: { offset: position, limit: pageSize, return_total_count: true },
			safeToRepeat: true,
			action: 'Listing courses',
		})) as CoursePage;
		const data = Array.isArray(page?.data) ? page.data : [];
		if (data.length === 0) return;
		if ((await visit(data)) === false) return;
		position += data.length;
		if (typeof page.total_count === 'number' && position >= page.total_count) return;
	}
}
