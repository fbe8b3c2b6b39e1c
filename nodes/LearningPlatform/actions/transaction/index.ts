import type { Resource } from '../../../shared/items/resources';
import type { LmsRun } from '../../transport';
import * as get from './get.operation';
import * as wait from './wait.operation';

export const transaction: Resource<LmsRun> = {
	resource: 'transaction',
	label: 'Transaction',
	defaultOperation: 'get',
	operations: {
		get: {
			name: 'Get',
			description: "Get the current status of a write's transaction",
			action: 'Get a transaction',
			toolDescription:
				"Reads the transaction of an earlier write by its transaction ID. Answers with its status (initiated while the platform is still working, then success or failed) and the platform's message",
			operation: get,
		},
		wait: {
			name: 'Wait',
			description: 'Wait until a transaction has finished, checking with growing intervals',
			action: 'Wait for a transaction',
			toolDescription:
				"Waits until the transaction of an earlier write, by its transaction ID, has finished. Answers with its final status and the platform's message, or an error when it is still running at the timeout",
			operation: wait,
		},
	},
};
