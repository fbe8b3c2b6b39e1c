import type { Resource } from '../../../shared/items/resources';
import type { LrsRun } from '../../transport';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as send from './send.operation';
import * as voidStatement from './void.operation';

export const statement: Resource<LrsRun> = {
	resource: 'statement',
	label: 'Statement',
	defaultOperation: 'send',
	operations: {
		send: {
			name: 'Send',
			description: 'Record a learning experience in the learning record store',
			action: 'Send a statement',
			toolDescription:
				'Records a learning experience (an xAPI statement: a learner by e-mail, a verb, an activity) in the learning record store. Answers with the statement ID and whether it was recorded or already recorded',
			operation: send,
		},
		get: {
			name: 'Get',
			description: 'Get one statement by its ID',
			action: 'Get a statement',
			toolDescription:
				'Gets one xAPI statement by its ID. Answers with the statement, by default as at most 10 flat fields (statementId, actorName, actorEmail, verb, activityId, activityName, result, timestamp)',
			operation: get,
		},
		getMany: {
			name: 'Get Many',
			description: 'List statements, optionally filtered by learner, verb, activity or time',
			action: 'Get many statements',
			toolDescription:
				'Lists xAPI statements, optionally filtered by learner e-mail, verb, activity, registration or time, up to Limit. Answers with one item per statement, by default at most 10 flat fields each (actor, verb, activity, result, timestamp)',
			operation: getMany,
		},
		void: {
			name: 'Void',
			description: 'Mark a recorded statement as invalid',
			action: 'Void a statement',
			toolDescription:
				'Marks a recorded xAPI statement as invalid (voids it), by its ID. Answers with the ID of the voiding statement',
			operation: voidStatement,
		},
	},
};
