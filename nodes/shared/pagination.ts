import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import type { PagingLimits } from './paging';
import { DEFAULT_MAX_WALK_BYTES, DEFAULT_PAGING_LIMITS } from './paging';

const MEGABYTE = 1024 * 1024;

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
		{
			displayName: 'Max Megabytes',
			name: 'maxMegabytes',
			type: 'number',
			typeOptions: { minValue: 1 },
			// DEFAULT_MAX_WALK_BYTES in megabytes (the linter wants a literal).
			default: 256,
			description:
				'With Return All: stop with an error after reading this many megabytes of answers, all pages together, so that a server sending huge pages cannot exhaust the memory',
		},
	];
}

const ceiling = z.number().int('must be a whole number').positive('must be at least 1').optional();

/** The zod shape of those options. */
export const pagingCeilingShape = { maxPages: ceiling, maxItems: ceiling, maxMegabytes: ceiling };

export function pagingLimitsFrom(options: {
	maxPages?: number;
	maxItems?: number;
	maxMegabytes?: number;
}): PagingLimits {
	return {
		maxPages: options.maxPages ?? DEFAULT_PAGING_LIMITS.maxPages,
		maxItems: options.maxItems ?? DEFAULT_PAGING_LIMITS.maxItems,
		maxBytes:
			options.maxMegabytes === undefined ? DEFAULT_MAX_WALK_BYTES : options.maxMegabytes * MEGABYTE,
	};
}
