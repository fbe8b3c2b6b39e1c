import type { IndexedCourse, LmsRun } from '../../../../nodes/LearningPlatform/transport';
import type { CourseValues } from '../../../../nodes/LearningPlatform/transport/courses';
import {
	courseSyncContract,
	fingerprint,
	idKey,
	listedDifferences,
} from '../../../../nodes/LearningPlatform/transport/courseSync';
import type { Existing, SyncRow } from '../../../../nodes/shared/sync/contract';
import { guardRemovals, planSync as plan } from '../../../../nodes/shared/sync/plan';
import { REMOVAL_PENDING, REMOVED } from '../../../../nodes/shared/sync/memory';
import { valuesFromListing } from '../../../../nodes/LearningPlatform/transport/courses';
import { parseCourseJson } from '../../../../nodes/LearningPlatform/actions/course/courseInput';

const ARCHIVED = REMOVED;
const ARCHIVE_PENDING = REMOVAL_PENDING;
type CatalogCourse = Existing<IndexedCourse> & { listed: IndexedCourse };

const contract = courseSyncContract(
	{ fns: { getNode: () => ({ name: 'Sync' }) } } as unknown as LmsRun,
	() => {
		throw new Error('a plan sends nothing');
	},
	new Map(),
);
const KINDS = { new: 'create', changed: 'update', same: 'unchanged', failed: 'failed' } as const;

function planSync(
	rows: Array<SyncRow<CourseValues>>,
	catalog: CatalogCourse[],
	memory: Record<string, string>,
	settings: { skipUnchanged: boolean; archiveMissing: boolean; maxArchiveShare: number },
) {
	const made = plan(contract, rows, { existing: catalog }, new Map(Object.entries(memory)), {
		skipUnchanged: settings.skipUnchanged,
		removeMissing: settings.archiveMissing,
		maxRemoveShare: settings.maxArchiveShare,
	});
	return {
		...made,
		rows: made.rows.map((r) => ({ ...r, kind: KINDS[r.kind] })),
		archive: made.remove,
		archivedBefore: made.removedBefore,
		catalogSize: made.size,
		archiveSkipped: made.notes.find((n) => n.startsWith('Nothing was archived')),
	};
}

const guardArchives = (made: ReturnType<typeof planSync>, share: number) =>
	guardRemovals(made, share, contract.words);

/** Body values as the node makes them from a platform object. */
function values(input: Record<string, unknown>) {
	const result = parseCourseJson({
		url: `https://learn.test/${String(input.external_id)}`,
		name: 'N',
		...input,
	});
	if (!result.ok) throw new Error(JSON.stringify(result.issues));
	return result.values;
}

/** A listing item as the documents describe it. */
function listed(externalId: string, extra: Record<string, unknown> = {}): CatalogCourse {
	const item = {
		id: `id-${externalId}`,
		name: 'N',
		description: null,
		images: [],
		url: `https://learn.test/${externalId}`,
		external_id: externalId,
		tags: [],
		published_at: null,
		duration_sec: null,
		restricted_groups: [],
		groups: [],
		channels: [],
		is_private: false,
		prices_data: [],
		...extra,
	};
	return { id: externalId, listed: { id: item.id, listed: valuesFromListing(item) } };
}

const row = (itemIndex: number, input: Record<string, unknown>): SyncRow<CourseValues> => ({
	itemIndex,
	id: String(input.external_id),
	values: values(input),
});

const settings = { skipUnchanged: true, archiveMissing: false, maxArchiveShare: 10 };

describe('the sync plan', () => {
	test('listed fields compare as the platform shows them', () => {
		const wanted = values({
			external_id: 'a',
			tags: ['x', 'y'],
			group_ids: [2, 1],
			published_at: '2026-03-01',
			prices_data: [{ amount: 5, currency: 'USD' }],
			duration_sec: 0,
		});
		const shown = listed('a', {
			tags: ['y', 'x'],
			groups: [
				{ id: 1, name: 'G1' },
				{ id: 2, name: 'G2' },
			],
			published_at: '2026-03-01T00:00:00.000Z',
			prices_data: [{ amount: '5.0', currency: 'USD' }],
			duration_sec: 0,
		});
		expect(listedDifferences(wanted, shown.listed.listed)).toEqual([]);
		expect(listedDifferences({ ...wanted, name: 'M' }, shown.listed.listed)).toEqual(['name']);
		// A listed value the node cannot read is never taken as unchanged.
		const unreadable = listed('a', { groups: [{ label: 'no id' }] });
		expect(
			listedDifferences(values({ external_id: 'a', group_ids: [1] }), unreadable.listed.listed),
		).toEqual(['group_ids']);
		// Given nothing, and shown nothing (null, [], false): the same.
		expect(listedDifferences(values({ external_id: 'a' }), listed('a').listed.listed)).toEqual([]);
	});

	test('the fingerprint covers only what the listing cannot show, in any order', () => {
		const a = values({ external_id: 'a', skills: ['s', 't'], level: 'beginner', name: 'One' });
		const b = values({ external_id: 'a', skills: ['t', 's'], level: 'beginner', name: 'Two' });
		expect(fingerprint(a)).toBe(fingerprint(b));
		expect(fingerprint(a)).not.toBe(fingerprint({ ...a, level: 'advanced' }));
		expect(fingerprint(a)).toHaveLength(16);
		expect(idKey('a')).toHaveLength(12);
	});

	test('decides created, updated and unchanged', () => {
		const withLevel = { external_id: 'b', level: 'advanced' };
		const memory = { [idKey('b')]: fingerprint(values(withLevel)) };
		const plan = planSync(
			[
				row(0, { external_id: 'a' }),
				row(1, withLevel),
				row(2, { external_id: 'c', level: 'beginner' }),
				row(3, { external_id: 'd', name: 'Changed' }),
				row(4, { external_id: 'new' }),
			],
			[listed('a'), listed('b'), listed('c'), listed('d')],
			memory,
			settings,
		);
		expect(plan.rows.map((r) => r.kind)).toEqual([
			'unchanged',
			'unchanged',
			'update',
			'update',
			'create',
		]);
		const full = planSync(
			[row(0, { external_id: 'a' })],
			[listed('a')],
			{},
			{ ...settings, skipUnchanged: false },
		);
		expect(full.rows[0].kind).toBe('update');
	});

	test('a remembered fingerprint catches a field dropped from the input', () => {
		const memory = { [idKey('a')]: fingerprint(values({ external_id: 'a', level: 'beginner' })) };
		const plan = planSync([row(0, { external_id: 'a' })], [listed('a')], memory, settings);
		expect(plan.rows[0].kind).toBe('update');
	});

	test('archives only what is missing, never a row that names it, never twice', () => {
		const catalog = ['a', 'b', 'c', 'd', 'e'].map((id) => listed(id));
		const memory = { [idKey('e')]: ARCHIVED, [idKey('d')]: `${ARCHIVE_PENDING}tx-1` };
		const plan = planSync(
			[row(0, { external_id: 'a' }), { itemIndex: 1, id: 'b', error: new Error('bad') }],
			catalog,
			memory,
			{ ...settings, archiveMissing: true },
		);
		expect(plan.archive.map((c) => c.id)).toEqual(['c']);
		expect(plan.archivedBefore).toBe(1);
		expect(plan.catalogSize).toBe(4);
		expect(guardArchives(plan, 10)).toMatchObject({
			allowed: false,
			message: 'would archive 1 of 4 courses (25 %), more than Max Archive Share (10 %)',
		});
		expect(guardArchives(plan, 25).allowed).toBe(true);
	});

	test('an invalid row whose course cannot be read stops every archive', () => {
		const plan = planSync(
			[row(0, { external_id: 'a' }), { itemIndex: 1, error: new Error('bad') }],
			[listed('a'), listed('b')],
			{},
			{ ...settings, archiveMissing: true },
		);
		expect(plan.archive).toEqual([]);
		expect(plan.archiveSkipped).toBeDefined();
	});

	test('duplicates fail every copy; a course the node archived cannot come back', () => {
		const plan = planSync(
			[
				row(0, { external_id: 'a' }),
				row(1, { external_id: 'a' }),
				row(2, { external_id: 'z' }),
				row(3, { external_id: 'y', status: 'archived' }),
			],
			[listed('a'), listed('z'), listed('y')],
			{ [idKey('z')]: ARCHIVED, [idKey('y')]: ARCHIVED },
			settings,
		);
		expect(plan.rows.map((r) => r.kind)).toEqual(['failed', 'failed', 'failed', 'unchanged']);
		expect(plan.rows.map((r) => ('error' in r ? String(r.error) : ''))).toEqual([
			expect.stringContaining('is on items 0, 1'),
			expect.stringContaining('is on items 0, 1'),
			expect.stringContaining('archived by this node on an earlier run'),
			'',
		]);
	});

	test('the guard message gives the numbers', () => {
		const catalog = Array.from({ length: 100 }, (_, n) => listed(`c${n}`));
		const plan = planSync(
			[0, 1, 2].map((n) => row(n, { external_id: `c${n}` })),
			catalog,
			{},
			{ ...settings, archiveMissing: true },
		);
		expect(guardArchives(plan, 10).message).toBe(
			'would archive 97 of 100 courses (97 %), more than Max Archive Share (10 %)',
		);
	});
});
