import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as wait from './wait.operation';

export { get, wait };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: "Get the current status of a write's transaction",
				action: 'Get a transaction',
			},
			{
				name: 'Wait',
				value: 'wait',
				description: 'Wait until a transaction has finished, checking with growing intervals',
				action: 'Wait for a transaction',
			},
		],
		default: 'get',
	},
	...get.description,
	...wait.description,
];
