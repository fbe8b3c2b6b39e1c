import type { INodeProperties } from 'n8n-workflow';

import * as archive from './archive.operation';
import * as getMany from './getMany.operation';
import * as upsert from './upsert.operation';

export { archive, getMany, upsert };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['course'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				description: 'Archive a course by its external ID',
				action: 'Archive a course',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a course',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List courses of the catalog',
				action: 'Get many courses',
			},
		],
		default: 'upsert',
	},
	...upsert.description,
	...getMany.description,
	...archive.description,
];
