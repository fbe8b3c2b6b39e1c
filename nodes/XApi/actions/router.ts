import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Resource } from '../../shared/items/router';
import { route } from '../../shared/items/router';
import type { LrsRun } from '../transport';
import { openLrsRun } from '../transport/run';
import { statement } from './statement';

export const resources: ReadonlyArray<Resource<LrsRun>> = [statement];

/** Reads in flight at once; record stores publish no rate limit, and 429s are waited out. */
const READ_CONCURRENCY = 4;

/** Reads go item by item; statement writes take every valid item at once (sent in batches). */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route(this, {
		resources,
		openRun: openLrsRun,
		concurrency: () => READ_CONCURRENCY,
		itemsAre: 'statements',
	});
}
