import type { INodeProperties } from 'n8n-workflow';

import * as assign from './assign.operation';
import * as complete from './complete.operation';
import * as start from './start.operation';
import * as withdraw from './withdraw.operation';

export { assign, complete, start, withdraw };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['assignment'] } },
		options: [
			{
				name: 'Assign',
				value: 'assign',
				description: 'Assign a course to a learner, optionally with a due date',
				action: 'Assign a course',
			},
			{
				name: 'Complete',
				value: 'complete',
				description: "Mark a learner's course as completed",
				action: 'Complete a course',
			},
			{
				name: 'Start',
				value: 'start',
				description: "Mark a learner's course as started",
				action: 'Start a course',
			},
			{
				name: 'Withdraw',
				value: 'withdraw',
				description: 'Withdraw a course assignment from a learner',
				action: 'Withdraw an assignment',
			},
		],
		default: 'assign',
	},
	...assign.description,
	...complete.description,
	...start.description,
	...withdraw.description,
];
