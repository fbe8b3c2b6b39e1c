import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation } from '../../shared/router';
import { route } from '../../shared/router';
import type { LmsRun } from '../transport';
import { lmsConcurrency, openLmsRun } from '../transport';
import * as assignment from './assignment';
import * as course from './course';
import * as transaction from './transaction';

const operations: Record<string, Record<string, Operation<LmsRun>>> = {
	course: {
		upsert: course.upsert,
		getMany: course.getMany,
		archive: course.archive,
		sync: course.sync,
	},
	assignment: {
		assign: assignment.assign,
		withdraw: assignment.withdraw,
		complete: assignment.complete,
		start: assignment.start,
	},
	transaction: { get: transaction.get, wait: transaction.wait },
};

/** The LMS node's parts of the shared router: its operations, its run, its concurrency. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route(this, {
		operations,
		openRun: openLmsRun,
		concurrency: lmsConcurrency,
		itemsAre: 'items',
	});
}
