import type { Resource } from '../../../shared/items/operation';
import type { LmsRun } from '../../transport';
import * as get from './get.operation';
import * as wait from './wait.operation';

/** The transaction resource: each operation listed once, for the form, the subtitle and the router. */
export const transaction: Resource<LmsRun> = {
	resource: 'transaction',
	label: 'Transaction',
	defaultOperation: 'get',
	operations: {
		get: {
			name: 'Get',
			description: "Get the current status of a write's transaction",
			action: 'Get a transaction',
			operation: get,
		},
		wait: {
			name: 'Wait',
			description: 'Wait until a transaction has finished, checking with growing intervals',
			action: 'Wait for a transaction',
			operation: wait,
		},
	},
};
