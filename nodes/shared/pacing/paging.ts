/**
 * Bounds for walking a server's pages: a server that ignores the offset, repeats a page,
 * sends an endless chain of links or claims a huge total must end the walk with a clear
 * error, never loop, never emit an item twice, and never grow memory without limit.
 */
export interface PagingLimits {
	maxPages: number;
	maxItems: number;
	/**
	 * Memory one walk may take, all pages together: each page's body as received and its parsed
	 * JSON (DEFAULT_MAX_WALK_BYTES if not given).
	 */
	maxBytes?: number;
}

export const DEFAULT_PAGING_LIMITS: PagingLimits = { maxPages: 1_000, maxItems: 50_000 };

/**
 * Memory one walk takes at most: 256 MB, which an n8n instance can afford once. A page counts
 * its body as received (garbage once parsed, but held until the heap is next collected) and
 * its parsed JSON (kept while a Return All collects it): 50,000 courses of 1 KB count about
 * 113 MB, 50,000 statements of 2 KB about 250 MB, so only a walk of large items stops here.
 */
export const DEFAULT_MAX_WALK_BYTES = 256 * 1024 * 1024;

/**
 * Items without an id cannot be told apart: a repeated one cannot be left out, and a page of
 * them cannot be recognised as a page already read. One walk passes at most this many.
 */
export const MAX_ITEMS_WITHOUT_ID = 1_000;

/** Bytes as megabytes for a message: "256 MB", "0.5 MB". */
export function megabytes(bytes: number): string {
	const mb = bytes / 1024 / 1024;
	return `${Number.isInteger(mb) ? mb : Number(mb.toPrecision(3))} MB`;
}

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

	private withoutId = 0;

	private bytes = 0;

	private readonly seen = new Set<string>();

	constructor(
		private readonly what: string,
		private readonly limits: PagingLimits = DEFAULT_PAGING_LIMITS,
	) {}

	/**
	 * Counts the memory one page's answer takes (body and parsed JSON) against the walk's
	 * budget, before its items are used: past the budget the walk stops.
	 */
	read(bytes: number): void {
		this.bytes += bytes;
		const budget = this.limits.maxBytes ?? DEFAULT_MAX_WALK_BYTES;
		if (this.bytes > budget) {
			throw new PagingError(
				`${this.what} stopped after ${megabytes(budget)} of answers (as received and parsed)`,
				'The pages read and the items parsed from them take more memory than one walk may. Raise "Max Megabytes" in the options if it really is that much, or read it in parts (Limit and Offset, or filters).',
			);
		}
	}

	/**
	 * Takes the ids of one page's items and says which are new: an id already seen, on an
	 * earlier page or earlier on this one, is not. A page of nothing but items already seen means
	 * the server did not advance; past the ceilings the walk stops.
	 */
	admit(ids: ReadonlyArray<string | undefined>): boolean[] {
		this.pages++;
		if (this.pages > this.limits.maxPages) {
			throw new PagingError(
				`${this.what} stopped after ${this.limits.maxPages} pages`,
				'The server kept sending more pages than the ceiling allows. Raise "Max Pages" in the options if there really are more.',
			);
		}
		const earlier = ids.map((id) => id !== undefined && this.seen.has(id));
		if (ids.length > 0 && earlier.every(Boolean)) {
			throw new PagingError(
				`${this.what} stopped: the server sent the same page again (page ${this.pages} holds only items already read)`,
				'The server does not advance through its pages (it may ignore the offset, or repeat a "more" link). Nothing was emitted twice.',
			);
		}
		const fresh = ids.map((id) => {
			if (id === undefined) return true;
			if (this.seen.has(id)) return false;
			this.seen.add(id);
			return true;
		});
		this.withoutId += ids.filter((id) => id === undefined).length;
		if (this.withoutId > MAX_ITEMS_WITHOUT_ID) {
			throw new PagingError(
				`${this.what} stopped: the server sent more than ${MAX_ITEMS_WITHOUT_ID} items without an id`,
				'Items without an id cannot be told apart, so repeated ones could not be left out. Check the server: every item it lists should carry its id.',
			);
		}
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
