/**
 * Where the trigger stands in the record store's statement stream, kept in the workflow's
 * static data between polls.
 *
 * Statements are read in `stored` order. The cursor holds the newest `stored` time seen and
 * the ids of the statements stored within OVERLAP_MS before it. Each poll asks for statements
 * stored since (cursor − OVERLAP_MS) and skips the ids it remembers, so it does not matter
 * whether the store treats `since` as exclusive (as xAPI says) or inclusive, statements that
 * share a timestamp are never lost or repeated, and a statement that becomes visible up to
 * OVERLAP_MS after a later one is still caught.
 *
 * A trigger that watches several verbs sends one query per verb (an xAPI statements query takes
 * one verb) and keeps one cursor for all of them: the queries read the same store's `stored`
 * times, and their statements are emitted merged in `stored` order (see newStatements.ts).
 */

/**
 * The version of the saved cursor. Version 2 keeps the remembered ids as a list of
 * `[id, stored ms]` pairs; version 1 kept them as the keys of an object, where an id named like
 * an Object.prototype member (`__proto__`, `constructor`) did not survive. Both are read.
 */
export const CURSOR_VERSION = 2;

/** The cursor as version 1 saved it. */
const OBJECT_CURSOR_VERSION = 1;

/** How far each poll looks back behind the newest `stored` time it has seen. */
export const OVERLAP_MS = 2_000;

/** Upper bound on remembered ids, so that a burst cannot grow the static data without end. */
export const MAX_REMEMBERED_IDS = 10_000;

export interface Cursor {
	version: number;
	/** Identifies the record store and filters the cursor belongs to. */
	key: string;
	/** The newest `stored` time seen, in ms since the epoch; undefined while the query matched nothing. */
	storedMs?: number;
	/** Ids seen with their `stored` time (ms), for the statements within the overlap. Any string is an id. */
	recent: Map<string, number>;
}

/** The cursor as kept in the workflow's static data (JSON). */
export interface SavedCursor {
	version: number;
	key: string;
	storedMs?: number;
	recent: Array<[string, number]>;
}

export interface SeenStatement {
	id?: unknown;
	stored?: unknown;
}

/**
 * The saved cursor if it belongs to `key`. A cursor saved under one of `continuing` (the key of
 * an earlier version of the same watch) is carried over to `key` rather than started afresh,
 * once it has seen a statement: before that it cannot say where history ends.
 */
export function readCursor(
	value: unknown,
	key: string,
	continuing: readonly string[] = [],
): Cursor | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const cursor = value as {
		version?: unknown;
		key?: unknown;
		storedMs?: unknown;
		recent?: unknown;
	};
	if (cursor.version !== CURSOR_VERSION && cursor.version !== OBJECT_CURSOR_VERSION) {
		return undefined;
	}
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

/** The remembered ids: pairs (version 2) or an object's own keys (version 1). */
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

/** The cursor as the workflow's static data keeps it. */
export function savedCursor(cursor: Cursor): SavedCursor {
	return {
		version: CURSOR_VERSION,
		key: cursor.key,
		...(cursor.storedMs === undefined ? {} : { storedMs: cursor.storedMs }),
		recent: [...cursor.recent],
	};
}

export function emptyCursor(key: string): Cursor {
	return { version: CURSOR_VERSION, key, recent: new Map() };
}

/** The `since` to ask for: the overlap before the newest time seen, or none while nothing was seen. */
export function sinceFor(cursor: Cursor): string | undefined {
	return cursor.storedMs === undefined
		? undefined
		: new Date(cursor.storedMs - OVERLAP_MS).toISOString();
}

export function storedMsOf(statement: SeenStatement): number | undefined {
	if (typeof statement.stored !== 'string') return undefined;
	const ms = Date.parse(statement.stored);
	return Number.isNaN(ms) ? undefined : ms;
}

export function idOf(statement: SeenStatement): string | undefined {
	return typeof statement.id === 'string' && statement.id ? statement.id.toLowerCase() : undefined;
}

export function hasSeen(cursor: Cursor, statement: SeenStatement): boolean {
	const id = idOf(statement);
	return id !== undefined && cursor.recent.has(id);
}

/**
 * Remembers a statement and moves the cursor forward to its `stored` time, but not past
 * `clockMs` (the record store's clock): a statement "stored" later than that keeps its id
 * remembered (for as long as its time lies ahead) and does not carry the cursor with it.
 */
export function remember(cursor: Cursor, statement: SeenStatement, clockMs = Infinity): void {
	const id = idOf(statement);
	const storedMs = storedMsOf(statement);
	const reached = storedMs === undefined ? undefined : Math.min(storedMs, clockMs);
	if (reached !== undefined && (cursor.storedMs === undefined || reached > cursor.storedMs)) {
		cursor.storedMs = reached;
	}
	// A statement without `stored` (which stores must set) cannot move the cursor; its id still counts.
	if (id !== undefined) cursor.recent.set(id, storedMs ?? cursor.storedMs ?? 0);
}

/** Brings a cursor that stands past the record store's clock (saved so before) back to it. */
export function holdBack(cursor: Cursor, clockMs: number): void {
	if (cursor.storedMs !== undefined && cursor.storedMs > clockMs) cursor.storedMs = clockMs;
}

/** Forgets ids that fell out of the overlap, and the oldest ones beyond the bound. */
export function prune(cursor: Cursor): Cursor {
	const horizon = (cursor.storedMs ?? 0) - OVERLAP_MS;
	const kept = [...cursor.recent]
		.filter(([, ms]) => ms >= horizon)
		.sort(([, a], [, b]) => b - a)
		.slice(0, MAX_REMEMBERED_IDS);
	return { ...cursor, recent: new Map(kept) };
}
