import { NodeOperationError } from 'n8n-workflow';

import type { Change, Reading, SyncContract } from '../../shared/sync/contract';
import type { CourseValues } from './courses';
import { archiveListedCourse } from './courseArchive';
import { COURSE_FIELDS, LISTED_FIELDS, STATUS_FIELD, upsertCourse } from './courses';
import type { IndexedCourse, LmsRun, WriteSettings } from './index';
import { digest, listCatalog, lmsSync, lookAlike } from './syncs';

/** A course is unchanged when listed fields match and the rest match the last confirmed fingerprint. */

const UNLISTED_FIELDS = COURSE_FIELDS.map((f) => f.api).filter(
	(api) => !LISTED_FIELDS.includes(api),
);

/** The memory key of an external id: 72 bits of its hash. */
export function idKey(externalId: string): string {
	return digest(`id\u0000${externalId}`, 12);
}

/** A value in a canonical text form: lists as sets, numbers and numeric text alike. */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map((v) => JSON.stringify(canonical(v))).sort();
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

/** 96 bits of a hash of the unlisted fields' values, whatever their order. */
export function fingerprint(values: CourseValues): string {
	const unlisted: Record<string, unknown> = {};
	for (const api of UNLISTED_FIELDS) {
		if (!isEmpty(values[api])) unlisted[api] = values[api];
	}
	return digest(JSON.stringify(canonical(unlisted)), 16);
}

/** The listed fields whose row value differs from the listing (or that it did not show). */
export function listedDifferences(values: CourseValues, listed: CourseValues): string[] {
	const differ: string[] = [];
	for (const api of LISTED_FIELDS) {
		const wanted = values[api];
		if (!(api in listed)) {
			// Not shown in a readable form: only "nothing" may go unwritten.
			if (!isEmpty(wanted)) differ.push(api);
			continue;
		}
		const shown = listed[api];
		if (isEmpty(wanted) && isEmpty(shown)) continue;
		if (JSON.stringify(canonical(wanted)) !== JSON.stringify(canonical(shown))) differ.push(api);
	}
	return differ;
}

function compareCourse(
	values: CourseValues,
	current: IndexedCourse | undefined,
	remembered: string | undefined,
	full: boolean,
): Change {
	if (!current) return { kind: 'new', changed: [] };
	const changed = listedDifferences(values, current.listed);
	const unlistedSame =
		remembered !== undefined
			? remembered === fingerprint(values)
			: UNLISTED_FIELDS.every((api) => isEmpty(values[api]));
	if (!unlistedSame) changed.push(...UNLISTED_FIELDS.filter((api) => values[api] !== undefined));
	if (!full && changed.length === 0 && unlistedSame) return { kind: 'same' };
	return { kind: 'changed', changed: changed.map(labelOf) };
}

async function readCatalog(
	run: LmsRun,
	remembered: ReadonlyMap<string, string>,
): Promise<Reading<IndexedCourse>> {
	const { existing, endedEarly } = await listCatalog(run);
	// The platform cannot delete a course: one this node wrote and the listing lacks was cut off.
	const listedKeys = new Set(existing.map((e) => idKey(e.id)));
	const unlisted = [...remembered.keys()].filter((key) => !listedKeys.has(key)).length;
	const incomplete =
		endedEarly ??
		(unlisted > 0
			? `${unlisted} courses this node wrote or archived before were not in the listing`
			: undefined);
	return { existing, incomplete };
}

export function courseSyncContract(
	run: LmsRun,
	write: () => WriteSettings,
	memory: ReadonlyMap<string, string>,
): SyncContract<CourseValues, IndexedCourse> {
	const { send, ...shared } = lmsSync(run, write);
	return {
		words: {
			title: 'Sync Catalog',
			idName: 'External ID',
			existing: 'courses listed',
			spelledBy: 'the platform lists',
			one: 'course',
			many: 'courses',
			created: 'created',
			updated: 'updated',
			removed: 'archived',
			remove: 'archive',
			guardOption: 'Max Archive Share',
			guardAdvice:
				'A truncated or half-downloaded file looks like this. If the archives are meant, raise Options → Max Archive Share for one run (archived content cannot be made active again).',
		},
		key: idKey,
		named: (externalId) => `"${externalId}"`,
		lookAlike,
		read: async () => await readCatalog(run, memory),
		compare: compareCourse,
		returning: (externalId, values) =>
			values[STATUS_FIELD] === 'archived'
				? { kind: 'same' }
				: {
						kind: 'refused',
						error: new NodeOperationError(
							run.fns.getNode(),
							`Course "${externalId}" was archived by this node on an earlier run, and archived content cannot be made active again`,
							{
								description:
									'The course came back into the input after it was archived. Give it a new external ID to publish it again, or keep it archived (status archived).',
							},
						),
					},
		fingerprint,
		echo: (externalId, current) => ({ externalId, courseId: current?.id }),
		write: async (itemIndex, values, place, onAccepted) =>
			await send(
				itemIndex,
				place,
				async (writeRun, settings) =>
					await upsertCourse(writeRun, itemIndex, values, {
						...settings,
						keepCurrentValues: false,
					}),
				onAccepted,
			),
		remove: async (course, place, onAccepted) =>
			await send(
				0,
				place,
				async (writeRun, settings) =>
					await archiveListedCourse(writeRun, 0, course.id, course.listed!, {}, settings),
				onAccepted,
			),
		keepsRemoved: true,
		claimsUnconfirmed: false,
		...shared,
	};
}

function labelOf(api: string): string {
	return COURSE_FIELDS.find((f) => f.api === api)?.label ?? api;
}
