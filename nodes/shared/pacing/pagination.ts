import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import type { PagingLimits } from './paging';
import { DEFAULT_PAGING_LIMITS } from './paging';

/** The Return All / Limit pair every "Get Many" operation shows. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Options that bound a Return All walk (see paging.ts); `what` names the items ("courses"). */
export function pagingCeilingProperties(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Max Pages',
			name: 'maxPages',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1000,
			description:
				'With Return All: stop with an error after this many pages, so a server that never stops paging cannot keep the run going',
		},
		{
			displayName: 'Max Items',
			name: 'maxItems',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50000,
			description: `With Return All: stop with an error after this many ${what}`,
		},
	];
}

const ceiling = z.number().int('must be a whole number').positive('must be at least 1').optional();

/** The zod shape of those options. */
export const pagingCeilingShape = { maxPages: ceiling, maxItems: ceiling };

export function pagingLimitsFrom(options: { maxPages?: number; maxItems?: number }): PagingLimits {
	return {
		maxPages: options.maxPages ?? DEFAULT_PAGING_LIMITS.maxPages,
		maxItems: options.maxItems ?? DEFAULT_PAGING_LIMITS.maxItems,
	};
}
