import type { IDataObject } from 'n8n-workflow';

// Polls read from (newest `stored` seen − OVERLAP_MS) and skip remembered ids: `since` may be
// exclusive (xAPI) or inclusive, and shared or late-visible timestamps are neither lost nor repeated.
// One cursor serves all watched verbs: xAPI takes one verb per query, all read the same `stored` times.

/** Version 1 kept ids as object keys, where `__proto__` or `constructor` did not survive; both are read. */
export const CURSOR_VERSION = 2;

const OBJECT_CURSOR_VERSION = 1;

export const OVERLAP_MS = 2_000;

/** So that a burst cannot grow the static data without end. */
export const MAX_REMEMBERED_IDS = 10_000;

export interface Cursor {
	version: number;
	key: string;
	/** Undefined while the query matched nothing. */
	storedMs?: number;
	/** Ids within the overlap, with their `stored` ms. Any string is an id. */
	recent: Map<string, number>;
}

export interface SeenStatement {
	id?: unknown;
	stored?: unknown;
}

/** An earlier key's cursor (`continuing`) carries over only once it knows where history ends. */
export function readCursor(
	value: unknown,
	key: string,
	continuing: readonly string[] = [],
): Cursor | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const cursor = value as Partial<Record<'version' | 'key' | 'storedMs' | 'recent', unknown>>;
	if (![CURSOR_VERSION, OBJECT_CURSOR_VERSION].includes(cursor.version as number)) return undefined;
	if (cursor.key !== key) {
		const carriedOver =
			continuing.includes(String(cursor.key)) && typeof cursor.storedMs === 'number';
		if (!carriedOver) return undefined;
	}
	const recent = recentOf(cursor.recent, cursor.version === CURSOR_VERSION);
	if (!recent) return undefined;
	return {
		version: CURSOR_VERSION,
		key,
		storedMs: typeof cursor.storedMs === 'number' ? cursor.storedMs : undefined,
		recent,
	};
}

function recentOf(value: unknown, pairs: boolean): Map<string, number> | undefined {
	if (!value || typeof value !== 'object') return undefined;
	if (pairs !== Array.isArray(value)) return undefined;
	const entries: unknown[] = pairs ? (value as unknown[]) : Object.entries(value);
	const recent = new Map<string, number>();
	for (const entry of entries) {
		if (!Array.isArray(entry)) continue;
		const [id, ms] = entry as unknown[];
		if (typeof id === 'string' && typeof ms === 'number') recent.set(id, ms);
	}
	return recent;
}

export function savedCursor(cursor: Cursor): IDataObject {
	return {
		version: CURSOR_VERSION,
		key: cursor.key,
		...(cursor.storedMs === undefined ? {} : { storedMs: cursor.storedMs }),
		recent: [...cursor.recent] as unknown as IDataObject[],
	};
}

export function emptyCursor(key: string): Cursor {
	return { version: CURSOR_VERSION, key, recent: new Map() };
}

export function msOf(text: unknown): number | undefined {
	const ms = typeof text === 'string' ? Date.parse(text) : NaN;
	return Number.isNaN(ms) ? undefined : ms;
}

export function storedMsOf(statement: SeenStatement): number | undefined {
	return msOf(statement.stored);
}

export function idOf(statement: SeenStatement): string | undefined {
	return typeof statement.id === 'string' && statement.id ? statement.id.toLowerCase() : undefined;
}

export function hasSeen(cursor: Cursor, statement: SeenStatement): boolean {
	const id = idOf(statement);
	return id !== undefined && cursor.recent.has(id);
}

/** Never past the store's clock: a statement "stored" in its future is remembered but does not move the cursor. */
export function remember(cursor: Cursor, statement: SeenStatement, clockMs = Infinity): void {
	const id = idOf(statement);
	const storedMs = storedMsOf(statement);
	const reached = storedMs === undefined ? undefined : Math.min(storedMs, clockMs);
	if (reached !== undefined) cursor.storedMs = Math.max(reached, cursor.storedMs ?? -Infinity);
	// A statement without `stored` (which stores must set) cannot move the cursor; its id still counts.
	if (id !== undefined) cursor.recent.set(id, storedMs ?? cursor.storedMs ?? 0);
}

export function holdBack(cursor: Cursor, clockMs: number): void {
	if (cursor.storedMs !== undefined && cursor.storedMs > clockMs) cursor.storedMs = clockMs;
}

export function prune(cursor: Cursor): Cursor {
	const horizon = (cursor.storedMs ?? 0) - OVERLAP_MS;
	const kept = [...cursor.recent]
		.filter(([, ms]) => ms >= horizon)
		.sort(([, a], [, b]) => b - a)
		.slice(0, MAX_REMEMBERED_IDS);
	return { ...cursor, recent: new Map(kept) };
}
