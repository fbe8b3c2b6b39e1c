import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as send from './send.operation';
import * as voidStatement from './void.operation';

export { get, getMany, send, voidStatement };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['statement'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one statement by its ID',
				action: 'Get a statement',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List statements, optionally filtered by learner, verb, activity or time',
				action: 'Get many statements',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Record a learning experience in the learning record store',
				action: 'Send a statement',
			},
			{
				name: 'Void',
				value: 'void',
				description: 'Mark a recorded statement as invalid',
				action: 'Void a statement',
			},
		],
		default: 'send',
	},
	...send.description,
	...get.description,
	...getMany.description,
	...voidStatement.description,
];
