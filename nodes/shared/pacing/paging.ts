import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

/**
 * Bounds for walking a server's pages: a server that ignores the offset, repeats a page,
 * sends an endless chain of links or claims a huge total must end the walk with a clear
 * error, never loop, never emit an item twice, and never grow memory without limit.
 */
export interface PagingLimits {
	maxPages: number;
	maxItems: number;
}

export const DEFAULT_PAGING_LIMITS: PagingLimits = { maxPages: 1_000, maxItems: 50_000 };

/** Thrown when a walk cannot go on; its message says why, in words. */
export class PagingError extends Error {
	constructor(
		message: string,
		readonly hint: string,
	) {
		super(message);
		this.name = 'PagingError';
	}
}

export class PageGuard {
	private pages = 0;

	private items = 0;

	private readonly seen = new Set<string>();

	constructor(
		private readonly what: string,
		private readonly limits: PagingLimits = DEFAULT_PAGING_LIMITS,
	) {}

	/**
	 * Takes the ids of one page's items and says which are new. A page of nothing but items
	 * already seen means the server did not advance; past the ceilings the walk stops.
	 */
	admit(ids: ReadonlyArray<string | undefined>): boolean[] {
		this.pages++;
		if (this.pages > this.limits.maxPages) {
			throw new PagingError(
				`${this.what} stopped after ${this.limits.maxPages} pages`,
				'The server kept sending more pages than the ceiling allows. Raise "Max Pages" in the options if there really are more.',
			);
		}
		const fresh = ids.map((id) => id === undefined || !this.seen.has(id));
		if (ids.length > 0 && fresh.every((isNew) => !isNew)) {
			throw new PagingError(
				`${this.what} stopped: the server sent the same page again (page ${this.pages} holds only items already read)`,
				'The server does not advance through its pages (it may ignore the offset, or repeat a "more" link). Nothing was emitted twice.',
			);
		}
		for (const id of ids) if (id !== undefined) this.seen.add(id);
		this.items += fresh.filter(Boolean).length;
		if (this.items > this.limits.maxItems) {
			throw new PagingError(
				`${this.what} stopped after ${this.limits.maxItems} items`,
				'The server kept sending more items than the ceiling allows. Raise "Max Items" in the options if there really are more.',
			);
		}
		return fresh;
	}
}

/** Where a walk must not go twice (a `more` link already followed). */
export class LinkGuard {
	private readonly followed = new Set<string>();

	constructor(private readonly what: string) {}

	follow(link: string): void {
		if (this.followed.has(link)) {
			throw new PagingError(
				`${this.what} stopped: the server sent a "more" link it had sent before`,
				'Following it again would read the same statements forever. Nothing was emitted twice.',
			);
		}
		this.followed.add(link);
	}
}

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

/** Options that bound a Return All walk (the limits above); `what` names the items ("courses"). */
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
