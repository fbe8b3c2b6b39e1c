import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Resource } from '../../shared/items/resources';
import { route } from '../../shared/items/router';
import type { LmsRun } from '../transport';
import { lmsConcurrency, openLmsRun } from '../transport/run';
import { assignment } from './assignment';
import { course } from './course';
import { transaction } from './transaction';

/** The node's resources, in the order the form shows them; everything else derives from these. */
export const resources: ReadonlyArray<Resource<LmsRun>> = [course, assignment, transaction];

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route(this, {
		resources,
		openRun: openLmsRun,
		concurrency: lmsConcurrency,
		itemsAre: 'items',
	});
}
