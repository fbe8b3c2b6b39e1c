import type { INodeProperties } from 'n8n-workflow';

import * as archive from './archive.operation';
import * as getMany from './getMany.operation';
import * as sync from './sync.operation';
import * as upsert from './upsert.operation';

export { archive, getMany, sync, upsert };

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
			{
				name: 'Sync Catalog',
				value: 'sync',
				description:
					'Make the catalog match the input items: create or update only what changed, optionally archive what left',
				action: 'Sync the course catalog',
			},
		],
		default: 'upsert',
	},
	...upsert.description,
	...getMany.description,
	...archive.description,
	...sync.description,
];
