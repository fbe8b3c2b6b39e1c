import type { Resource } from '../../../shared/items/operation';
import type { LrsRun } from '../../transport';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as send from './send.operation';
import * as voidStatement from './void.operation';

/** The statement resource: each operation listed once, for the form, the subtitle and the router. */
export const statement: Resource<LrsRun> = {
	resource: 'statement',
	label: 'Statement',
	defaultOperation: 'send',
	operations: {
		send: {
			name: 'Send',
			description: 'Record a learning experience in the learning record store',
			action: 'Send a statement',
			operation: send,
		},
		get: {
			name: 'Get',
			description: 'Get one statement by its ID',
			action: 'Get a statement',
			operation: get,
		},
		getMany: {
			name: 'Get Many',
			description: 'List statements, optionally filtered by learner, verb, activity or time',
			action: 'Get many statements',
			operation: getMany,
		},
		void: {
			name: 'Void',
			description: 'Mark a recorded statement as invalid',
			action: 'Void a statement',
			operation: voidStatement,
		},
	},
};
