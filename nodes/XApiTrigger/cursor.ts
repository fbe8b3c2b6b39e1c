import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../shared/form/input';

// Polls read from (newest `stored` seen − OVERLAP_MS) and skip remembered ids: `since` may be
// exclusive (xAPI) or inclusive, and shared or late-visible timestamps are neither lost nor repeated.
// One cursor serves all watched verbs: xAPI takes one verb per query, all read the same `stored` times.

/** Version 1 kept ids as object keys, where `__proto__` or `constructor` did not survive; both are read. */
const CURSOR_VERSION = 2;

export const OVERLAP_MS = 2_000;

/** So that a burst cannot grow the static data without end. */
export const MAX_REMEMBERED_IDS = 10_000;

export interface Cursor {
	key: string;
	/** Undefined while the query matched nothing. */
	storedMs?: number;
	/** Ids within the overlap, with their `stored` ms. Any string is an id. */
	recent: Map<string, number>;
}

/** An earlier key's cursor (`continuing`) carries over only once it knows where history ends. */
export function readCursor(
	value: unknown,
	key: string,
	continuing: readonly string[] = [],
): Cursor | undefined {
	if (!isPlainObject(value) || ![1, CURSOR_VERSION].includes(value.version as number)) return;
	const storedMs = typeof value.storedMs === 'number' ? value.storedMs : undefined;
	if (value.key !== key && (!continuing.includes(String(value.key)) || storedMs === undefined))
		return;
	const pairs = value.version === CURSOR_VERSION;
	const recent = value.recent;
	if (!recent || typeof recent !== 'object' || pairs !== Array.isArray(recent)) return;
	const entries = (pairs ? recent : Object.entries(recent)) as unknown[];
	const valid = entries.filter(
		(entry): entry is [string, number] =>
			Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number',
	);
	return { key, storedMs, recent: new Map(valid) };
}

/** Only the ids within the overlap are kept, the newest first. */
export function savedCursor({ key, storedMs, recent }: Cursor): IDataObject {
	const horizon = (storedMs ?? 0) - OVERLAP_MS;
	const kept = [...recent]
		.filter(([, ms]) => ms >= horizon)
		.sort(([, a], [, b]) => b - a)
		.slice(0, MAX_REMEMBERED_IDS);
	return {
		version: CURSOR_VERSION,
		key,
		...(storedMs === undefined ? {} : { storedMs }),
		recent: kept as unknown as IDataObject[],
	};
}

export const emptyCursor = (key: string): Cursor => ({ key, recent: new Map() });

export function msOf(text: unknown): number | undefined {
	const ms = typeof text === 'string' ? Date.parse(text) : NaN;
	return Number.isNaN(ms) ? undefined : ms;
}

export const storedMsOf = (statement: IDataObject) => msOf(statement.stored);

export function idOf(statement: IDataObject): string | undefined {
	return typeof statement.id === 'string' && statement.id ? statement.id.toLowerCase() : undefined;
}

/** Never past the store's clock: a statement "stored" in its future is remembered but does not move the cursor. */
export function remember(cursor: Cursor, statement: IDataObject, clockMs = Infinity): void {
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
