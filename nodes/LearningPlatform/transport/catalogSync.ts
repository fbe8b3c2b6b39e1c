import { createHash } from 'crypto';

import type { CourseValues } from './courseContract';
import { COURSE_FIELDS, LISTED_FIELDS, STATUS_FIELD } from './courseContract';

/**
 * Sync Catalog's plan, made whole before anything is sent, from three things: the input rows
 * (the whole desired catalog), the catalog as listed once, and what this node remembers of the
 * bodies it had confirmed. Pure: no requests, no n8n.
 *
 * A course is **unchanged** when every field the listing returns matches the row, and the
 * fields the listing cannot return (content type, course type, level, skills, languages,
 * expiration date, status) match the fingerprint of the last body the node had confirmed for
 * that external id. A row that gives none of those fields, for a course the node remembers
 * nothing of, is decided by the listing alone. Anything else is written.
 */

/** What the node remembers per course, keyed by `idKey(externalId)`. */
export type SyncMemory = Record<string, string>;

/** Remembered value: the course was archived by this node (confirmed). */
export const ARCHIVED = '!';

/** Remembered value prefix: an archive was accepted as this transaction, not yet confirmed. */
export const ARCHIVE_PENDING = '?';

/** Fields the documented listing cannot return: only a fingerprint can tell they are unchanged. */
export const UNLISTED_FIELDS = COURSE_FIELDS.map((f) => f.api).filter(
	(api) => !LISTED_FIELDS.includes(api),
);

function digest(text: string, length: number): string {
	return createHash('sha256').update(text).digest('base64url').slice(0, length);
}

/** The memory key of an external id: 72 bits of its hash (12 characters). */
export function idKey(externalId: string): string {
	return digest(`id\u0000${externalId}`, 12);
}

/** The memory scope of a client (its base URL and client id): memory never crosses catalogs. */
export function scopeKey(client: string): string {
	return digest(`client\u0000${client}`, 12);
}

/** A value in a canonical text form: lists as sets, numbers and numeric text alike. */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) {
		return value.map((v) => JSON.stringify(canonical(v))).sort();
	}
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
	}
	if (typeof value === 'number') return String(value);
	if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) {
		return String(Number(value));
	}
	return value;
}

/** Nothing, as the listing shows a value the content was written without. */
function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		value === '' ||
		value === false ||
		(Array.isArray(value) && value.length === 0)
	);
}

/**
 * The fingerprint of what a body carries beyond the listing: 96 bits (16 characters) of a hash
 * of the unlisted fields' values. The same for the same values whatever their order.
 */
export function fingerprint(values: CourseValues): string {
	const unlisted: Record<string, unknown> = {};
	for (const api of UNLISTED_FIELDS) {
		if (!isEmpty(values[api])) unlisted[api] = values[api];
	}
	return digest(JSON.stringify(canonical(unlisted)), 16);
}

/** Whether a row gives any field the listing cannot show. */
export function hasUnlistedValues(values: CourseValues): boolean {
	return UNLISTED_FIELDS.some((api) => !isEmpty(values[api]));
}

/** The listed fields whose row value differs from the listing (or that the listing did not show). */
export function listedDifferences(values: CourseValues, listed: CourseValues): string[] {
	const differ: string[] = [];
	for (const api of LISTED_FIELDS) {
		const wanted = values[api];
		if (!(api in listed)) {
			// The listing did not show it in a readable form: only "nothing" may go unwritten.
			if (!isEmpty(wanted)) differ.push(api);
			continue;
		}
		const shown = listed[api];
		if (isEmpty(wanted) && isEmpty(shown)) continue;
		if (JSON.stringify(canonical(wanted)) !== JSON.stringify(canonical(shown))) differ.push(api);
	}
	return differ;
}

export interface SyncRow {
	itemIndex: number;
	/** Read even from an invalid row where possible: a row that names a course keeps it. */
	externalId?: string;
	/** The checked body values; absent for an invalid row. */
	values?: CourseValues;
	/** Why the row is invalid. */
	error?: unknown;
}

export interface CatalogCourse {
	externalId: string;
	id?: string;
	listed: CourseValues;
}

export interface SyncSettings {
	skipUnchanged: boolean;
	archiveMissing: boolean;
	/** Percent of the catalog. */
	maxArchiveShare: number;
}

export type RowDecision =
	| {
			kind: 'create' | 'update';
			itemIndex: number;
			externalId: string;
			values: CourseValues;
			changed: string[];
	  }
	| { kind: 'unchanged'; itemIndex: number; externalId: string; courseId?: string }
	| { kind: 'invalid'; itemIndex: number; error: unknown }
	| { kind: 'duplicate'; itemIndex: number; externalId: string; items: number[] }
	| { kind: 'archivedBefore'; itemIndex: number; externalId: string };

export interface SyncPlan {
	rows: RowDecision[];
	/** Courses to archive, in catalog order. */
	archive: CatalogCourse[];
	/** Catalog courses this node archived on earlier runs (not archived again). */
	archivedBefore: number;
	/** The courses the guard measures against: listed, less those the node archived before. */
	catalogSize: number;
	/** Set when archiving was skipped as a whole, with the reason. */
	archiveSkipped?: string;
}

/**
 * Decides every row and every missing course. Rows that fail validation, and every copy of a
 * duplicated external id, still count as present: what they name is never archived.
 */
export function planSync(
	rows: readonly SyncRow[],
	catalog: readonly CatalogCourse[],
	memory: Readonly<SyncMemory>,
	settings: SyncSettings,
): SyncPlan {
	const byId = new Map(catalog.map((c) => [c.externalId, c]));
	const itemsById = new Map<string, number[]>();
	for (const row of rows) {
		if (row.externalId === undefined) continue;
		const list = itemsById.get(row.externalId) ?? [];
		list.push(row.itemIndex);
		itemsById.set(row.externalId, list);
	}
	const remembered = (externalId: string) => memory[idKey(externalId)];
	const archivedByNode = (externalId: string) => {
		const value = remembered(externalId);
		return value === ARCHIVED || value?.startsWith(ARCHIVE_PENDING) === true;
	};

	const decisions: RowDecision[] = rows.map((row): RowDecision => {
		if (!row.values || row.externalId === undefined) {
			return { kind: 'invalid', itemIndex: row.itemIndex, error: row.error };
		}
		const { externalId, values } = row;
		const items = itemsById.get(externalId) ?? [];
		if (items.length > 1) return { kind: 'duplicate', itemIndex: row.itemIndex, externalId, items };
		const current = byId.get(externalId);
		if (!current) {
			return { kind: 'create', itemIndex: row.itemIndex, externalId, values, changed: [] };
		}
		if (archivedByNode(externalId)) {
			// Archived content cannot be made active again: only a row that keeps it archived fits.
			return values[STATUS_FIELD] === 'archived'
				? { kind: 'unchanged', itemIndex: row.itemIndex, externalId, courseId: current.id }
				: { kind: 'archivedBefore', itemIndex: row.itemIndex, externalId };
		}
		const changed = listedDifferences(values, current.listed);
		const known = remembered(externalId);
		const unlistedSame =
			known !== undefined ? known === fingerprint(values) : !hasUnlistedValues(values);
		if (!unlistedSame) changed.push(...UNLISTED_FIELDS.filter((api) => values[api] !== undefined));
		if (settings.skipUnchanged && changed.length === 0 && unlistedSame) {
			return { kind: 'unchanged', itemIndex: row.itemIndex, externalId, courseId: current.id };
		}
		return { kind: 'update', itemIndex: row.itemIndex, externalId, values, changed };
	});

	let archivedBefore = 0;
	for (const course of catalog) if (remembered(course.externalId) === ARCHIVED) archivedBefore++;
	const catalogSize = catalog.length - archivedBefore;
	const plan: SyncPlan = { rows: decisions, archive: [], archivedBefore, catalogSize };
	if (!settings.archiveMissing) return plan;
	if (rows.some((row) => row.externalId === undefined)) {
		plan.archiveSkipped =
			'an input item failed validation before its external ID could be read, so any course of the catalog could be the one it names';
		return plan;
	}
	plan.archive = catalog.filter(
		(course) => !itemsById.has(course.externalId) && !archivedByNode(course.externalId),
	);
	return plan;
}

export interface GuardVerdict {
	allowed: boolean;
	/** "would archive 97 of 100 courses (97 %), more than Max Archive Share (10 %)" */
	message: string;
	sharePercent: number;
}

/** Whether the plan's archives stay within the share of the catalog the user allows. */
export function guardArchives(plan: SyncPlan, maxArchiveShare: number): GuardVerdict {
	const count = plan.archive.length;
	const size = plan.catalogSize;
	const share = count === 0 ? 0 : size === 0 ? 100 : (count / size) * 100;
	const shown =
		share >= 10 || Number.isInteger(share) ? String(Math.round(share)) : share.toFixed(1);
	const allowed = share <= maxArchiveShare;
	const message = `would archive ${count} of ${size} courses (${shown} %)${
		allowed ? '' : `, more than Max Archive Share (${maxArchiveShare} %)`
	}`;
	return { allowed, message, sharePercent: share };
}

/**
 * Forgets what belongs to no course any more (neither listed nor in the input), so the memory
 * never outgrows the catalog.
 */
export function pruneMemory(memory: SyncMemory, keep: Iterable<string>): void {
	const wanted = new Set<string>();
	for (const externalId of keep) wanted.add(idKey(externalId));
	for (const key of Object.keys(memory)) if (!wanted.has(key)) delete memory[key];
}
