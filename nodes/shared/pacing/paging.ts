import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A server that ignores offsets, repeats pages or never ends still ends the walk with an error. */
export interface PagingLimits {
	maxPages: number;
	maxItems: number;
	maxBytes?: number;
}

export const DEFAULT_PAGING_LIMITS: PagingLimits = { maxPages: 1_000, maxItems: 50_000 };

/** Affordable once: 50,000 courses of 1 KB take about 113 MB, 50,000 statements of 2 KB 250 MB. */
export const DEFAULT_MAX_WALK_BYTES = 256 * 1024 * 1024;

/** Items without an id cannot be told apart, so a repeated one cannot be left out. */
export const MAX_ITEMS_WITHOUT_ID = 1_000;

export function megabytes(bytes: number): string {
	const mb = bytes / 1024 / 1024;
	return `${Number.isInteger(mb) ? mb : Number(mb.toPrecision(3))} MB`;
}

/** A character past Latin-1: V8 then keeps the whole string at two bytes a character. */
const TWO_BYTE_CHARACTER = /[\u0100-\uffff]/;

/** V8's heap for a parsed value, within 15 % of that measured for course and statement pages. */
function heapBytesOf(value: unknown): number {
	if (typeof value === 'string') {
		return 16 + (TWO_BYTE_CHARACTER.test(value) ? 2 : 1) * value.length;
	}
	if (typeof value === 'number') {
		return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 0 : 16;
	}
	if (value === null || typeof value !== 'object') return 0;
	let bytes = 0;
	if (Array.isArray(value)) {
		for (const entry of value) bytes += 8 + heapBytesOf(entry);
		return 32 + bytes;
	}
	const object = value as Record<string, unknown>;
	for (const key in object) bytes += 8 + heapBytesOf(object[key]);
	return 24 + bytes;
}

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
	private readonly count = { pages: 0, items: 0, withoutId: 0, bytes: 0 };

	/** The heaviest page so far: the next one may weigh as much before it can be counted. */
	private heaviest = 0;

	private readonly seen = new Set<string>();

	constructor(
		private readonly what: string,
		private readonly limits: PagingLimits = DEFAULT_PAGING_LIMITS,
	) {}

	/** Before asking for a page: the walk so far and one more page as heavy must fit the budget. */
	next(): void {
		this.budget(this.count.bytes + this.heaviest);
	}

	/** A page's bytes as received, and what it holds once parsed. */
	read(bytes: number, parsed?: unknown): void {
		const weight = bytes + heapBytesOf(parsed);
		this.heaviest = Math.max(this.heaviest, weight);
		this.budget((this.count.bytes += weight));
	}

	private budget(bytes: number): void {
		const budget = this.limits.maxBytes ?? DEFAULT_MAX_WALK_BYTES;
		if (bytes > budget) {
			throw new PagingError(
				`${this.what} stopped after ${megabytes(budget)} of answers (as received and parsed)`,
				'The pages read and the items parsed from them take more memory than one walk may. Raise "Max Megabytes" in the options if it really is that much, or read it in parts (Limit and Offset, or filters).',
			);
		}
	}

	/** Which ids are new; a page of only ids already seen means the server did not advance. */
	admit(ids: ReadonlyArray<string | undefined>): boolean[] {
		this.ceiling(++this.count.pages, this.limits.maxPages, 'pages', 'Max Pages');
		const fresh = ids.map((id) => {
			if (id === undefined) return true;
			if (this.seen.has(id)) return false;
			this.seen.add(id);
			return true;
		});
		if (fresh.length > 0 && !fresh.includes(true)) {
			throw new PagingError(
				`${this.what} stopped: the server sent the same page again (page ${this.count.pages} holds only items already read)`,
				'The server does not advance through its pages (it may ignore the offset, or repeat a "more" link). Nothing was emitted twice.',
			);
		}
		this.count.withoutId += ids.filter((id) => id === undefined).length;
		if (this.count.withoutId > MAX_ITEMS_WITHOUT_ID) {
			throw new PagingError(
				`${this.what} stopped: the server sent more than ${MAX_ITEMS_WITHOUT_ID} items without an id`,
				'Items without an id cannot be told apart, so repeated ones could not be left out. Check the server: every item it lists should carry its id.',
			);
		}
		this.count.items += fresh.filter(Boolean).length;
		this.ceiling(this.count.items, this.limits.maxItems, 'items', 'Max Items');
		return fresh;
	}

	private ceiling(count: number, max: number, what: string, option: string): void {
		if (count > max) {
			throw new PagingError(
				`${this.what} stopped after ${max} ${what}`,
				`The server kept sending more ${what} than the ceiling allows. Raise "${option}" in the options if there really are more.`,
			);
		}
	}
}

/** A bound's check, its error the node's (with the bound's hint). */
export function withinBounds<T>(node: INode, itemIndex: number | undefined, check: () => T): T {
	try {
		return check();
	} catch (error) {
		throw new NodeOperationError(node, error as Error, {
			itemIndex,
			description: error instanceof PagingError ? error.hint : undefined,
		});
	}
}
