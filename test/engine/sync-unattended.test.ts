/**
 * Both syncs run unattended (INTERFACE.md, "Both syncs, run unattended"), through n8n's engine
 * against the sandbox: Max Writes per Run, Archive / Withdraw After (Days), plan IDs and Approved
 * Plan, Memory Key, Output; and where they meet (the guard, dry runs, memory that was not saved).
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { runNode } from '../helpers/workflows';

const fixture = useSandbox();

const COURSES = '/api/developer/v2/courses.json';
const USER_COURSES = '/api/developer/v2/user_courses.json';

interface Kind {
	parameters: INodeParameters;
	row(n: number): IDataObject;
	path: string;
	/** The key a write names (external id, or email), and whether it removes. */
	keyOf(body: IDataObject): string;
	removes(body: IDataObject): boolean;
	created: string;
	removed: string;
	missing: string;
	share: string;
	after: string;
	/** The verb in the options' names: "Archive Missing", "Max Withdraw Share". */
	verb: string;
	seed(): Promise<void>;
}

const KINDS: Record<'catalog' | 'roster', Kind> = {
	catalog: {
		parameters: {
			resource: 'course',
			operation: 'sync',
			inputMode: 'json',
			course: '={{ $json }}',
		},
		row: (n) => ({
			external_id: `c-${n}`,
			name: `Course ${n}`,
			url: `https://learn.test/c/${n}`,
			prices_data: [],
		}),
		path: COURSES,
		keyOf: (body) => String(body.external_id),
		removes: (body) => body.status === 'archived',
		created: 'created',
		removed: 'archived',
		missing: 'archiveMissing',
		share: 'maxArchiveShare',
		after: 'archiveAfterDays',
		verb: 'Archive',
		seed: async () => {},
	},
	roster: {
		parameters: {
			resource: 'assignment',
			operation: 'sync',
			email: '={{ $json.email }}',
			externalId: '={{ $json.course }}',
			additionalFields: { dueDate: '={{ $json.due }}' },
		},
		row: (n) => ({ email: `l${n}@example.com`, course: 'safety', due: '2026-12-01' }),
		path: USER_COURSES,
		keyOf: (body) => String(body.email_id),
		removes: (body) => body.status === 'withdraw',
		created: 'assigned',
		removed: 'withdrawn',
		missing: 'withdrawMissing',
		share: 'maxWithdrawShare',
		after: 'withdrawAfterDays',
		verb: 'Withdraw',
		seed: async () => {
			const run = await runNode({
				credentials: fixture.credentials(),
				parameters: {
					resource: 'course',
					operation: 'upsert',
					externalId: 'safety',
					name: 'Safety',
					url: 'https://learn.test/safety',
				},
			});
			expect(run.error).toBeUndefined();
		},
	},
};

const rows = (kind: Kind, from: number, to: number) =>
	Array.from({ length: to - from }, (_, n) => kind.row(from + n));
const actions = (items: INodeExecutionData[]) => items.map((i) => i.json.action);
const count = (list: unknown[], value: unknown) => list.filter((v) => v === value).length;
const SECOND_IN_DAYS = 1 / 86_400;
const DAY_MS = 86_400_000;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.each(Object.entries(KINDS))('%s', (_, kind) => {
	const writes = () =>
		fixture.sandbox
			.requests()
			.filter((r) => r.method === 'POST' && r.path === kind.path)
			.map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as IDataObject);

	async function sync(
		items: IDataObject[],
		staticData: IDataObject,
		options: IDataObject = {},
		extra: {
			continueOnFail?: boolean;
			nodeName?: string;
			nodeId?: string;
			workflowId?: string;
		} = {},
	) {
		const before = writes().length;
		const result = await runNode({
			credentials: fixture.credentials(),
			items,
			staticData,
			mode: 'trigger',
			...extra,
			parameters: {
				...kind.parameters,
				options: { [kind.missing]: true, ...options } as INodeParameters,
			},
		});
		const run = result.run.data.resultData.runData[extra.nodeName ?? 'Node']?.[0] as
			| { hints?: Array<{ message: string }> }
			| undefined;
		return {
			...result,
			sent: writes().slice(before),
			hints: (run?.hints ?? []).map((h) => h.message).join('\n'),
		};
	}

	beforeEach(async () => await kind.seed());

	test('a first night bounded by Max Writes per Run spreads over runs, each entry written once', async () => {
		const staticData: IDataObject = {};
		const all = rows(kind, 0, 25);
		const first = await sync(all, staticData, { maxWritesPerRun: 10 });
		expect(first.error).toBeUndefined();
		expect(actions(first.items)).toEqual([
			...Array(10).fill(kind.created),
			...Array(15).fill('deferred'),
		]);
		expect(first.items[10].json).toMatchObject({ action: 'deferred', planned: kind.created });
		expect(first.items[10].pairedItem).toEqual({ item: 10 });
		expect(first.sent).toHaveLength(10);
		expect(first.hints).toMatch(/15 deferred/);

		const second = await sync(all, staticData, { maxWritesPerRun: 10 });
		expect(count(actions(second.items), 'unchanged')).toBe(10);
		expect(count(actions(second.items), kind.created)).toBe(10);
		const third = await sync(all, staticData, { maxWritesPerRun: 10 });
		expect(count(actions(third.items), kind.created)).toBe(5);
		const fourth = await sync(all, staticData, { maxWritesPerRun: 10 });
		expect(fourth.sent).toEqual([]);
		expect(actions(fourth.items)).toEqual(all.map(() => 'unchanged'));

		const keys = writes().map(kind.keyOf);
		expect(new Set(keys).size).toBe(25);
		expect(keys).toHaveLength(25);
	});

	test('a dry run of a bounded plan shows what would be deferred, with its plan ID', async () => {
		const staticData: IDataObject = {};
		const dry = await sync(rows(kind, 0, 5), staticData, { maxWritesPerRun: 2, dryRun: true });
		expect(dry.sent).toEqual([]);
		expect(dry.items.map((i) => [i.json.action, i.json.planned, i.json.dryRun])).toEqual([
			[kind.created, undefined, true],
			[kind.created, undefined, true],
			['deferred', kind.created, true],
			['deferred', kind.created, true],
			['deferred', kind.created, true],
		]);
		const planIds = new Set(dry.items.map((i) => i.json.planId));
		expect(planIds.size).toBe(1);
		expect([...planIds][0]).toMatch(/^[\w-]{16}$/);
	});

	test('deferred and the guard: the guard judges the whole plan, not the bounded part', async () => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 20), staticData);
		const run = await sync(rows(kind, 0, 5), staticData, { maxWritesPerRun: 2 });
		expect(run.error?.message).toMatch(/would (archive|withdraw) 15 of 20 .* \(75 %\), more than/);
		expect(run.sent).toEqual([]);
	});

	test('removals first when bounded: the rest of the plan waits', async () => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 10), staticData);
		const run = await sync([...rows(kind, 0, 9), ...rows(kind, 20, 23)], staticData, {
			maxWritesPerRun: 2,
			[kind.share]: 20,
		});
		expect(run.sent.filter(kind.removes).map(kind.keyOf)).toEqual([
			kind.keyOf(removedKey(kind, 9)),
		]);
		expect(run.sent).toHaveLength(2);
		expect(actions(run.items)).toEqual([
			...Array(9).fill('unchanged'),
			kind.created,
			'deferred',
			'deferred',
			kind.removed,
		]);
	});

	test('after Remove After (Days) a missing entry is removed; one that comes back never is', async () => {
		const staticData: IDataObject = {};
		const grace = { [kind.after]: 2 * SECOND_IN_DAYS };
		await sync(rows(kind, 0, 10), staticData);
		const started = Date.now();
		const night1 = await sync(rows(kind, 0, 8), staticData, { ...grace, [kind.share]: 20 });
		expect(night1.sent).toEqual([]);
		const missing = night1.items.filter((i) => i.json.action === 'missing');
		expect(missing).toHaveLength(2);
		expect(missing[0].pairedItem).toEqual([]);
		const removeAfter = Date.parse(String(missing[0].json.removeAfter));
		expect(removeAfter).toBeGreaterThanOrEqual(started - 1_000 + 2_000);
		expect(removeAfter).toBeLessThanOrEqual(Date.now() + 2_000);

		await sleep(2_500);
		// Row 8 is back: nothing is written for it; row 9 is still missing and now due.
		const night2 = await sync(rows(kind, 0, 9), staticData, { ...grace, [kind.share]: 20 });
		expect(night2.sent.map((w) => [kind.keyOf(w), kind.removes(w)])).toEqual([
			[kind.keyOf(removedKey(kind, 9)), true],
		]);
		expect(actions(night2.items)).toEqual([...Array(9).fill('unchanged'), kind.removed]);

		// Row 8 leaves again: its clock starts anew, it is not removed at once.
		const night3 = await sync(rows(kind, 0, 8), staticData, { ...grace, [kind.share]: 20 });
		expect(night3.sent).toEqual([]);
		expect(actions(night3.items).slice(8)).toEqual(['missing']);
	});

	test('grace and the guard: the guard judges only the removals due now', async () => {
		const staticData: IDataObject = {};
		const grace = { [kind.after]: 2 * SECOND_IN_DAYS };
		await sync(rows(kind, 0, 10), staticData);
		const night1 = await sync(rows(kind, 0, 5), staticData, grace);
		expect(night1.error).toBeUndefined();
		expect(count(actions(night1.items), 'missing')).toBe(5);
		await sleep(2_500);
		const night2 = await sync(rows(kind, 0, 5), staticData, grace);
		expect(night2.error?.message).toMatch(/would (archive|withdraw) 5 of 10 .* \(50 %\)/);
		expect(night2.sent).toEqual([]);
	});

	test('an approved plan goes past the guard with exactly its removals; any other is refused with its plan ID', async () => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 10), staticData);
		const input = rows(kind, 0, 6);
		const dry = await sync(input, staticData, { dryRun: true, output: 'summary' });
		expect(dry.items).toHaveLength(1);
		const summary = dry.items[0].json;
		expect(summary).toMatchObject({
			dryRun: true,
			needsApproval: true,
			counts: { unchanged: 6, [kind.removed]: 4 },
			changesOmitted: 0,
		});
		expect(dry.items[0].pairedItem).toEqual([]);
		const planId = String(summary.planId);

		const wrong = await sync(input, staticData, { approvedPlan: 'not-this-plan' });
		expect(wrong.error?.message).toMatch(/^Nothing was written: the sync would/);
		expect(String((wrong.error as { description?: string }).description)).toContain(planId);
		expect(wrong.sent).toEqual([]);
		// Another plan (one more removal) has another ID and is refused too.
		const other = await sync(rows(kind, 0, 5), staticData, { approvedPlan: planId });
		expect(other.error).toBeDefined();
		expect(other.sent).toEqual([]);

		const approved = await sync(input, staticData, { approvedPlan: planId });
		expect(approved.error).toBeUndefined();
		expect(approved.sent.filter(kind.removes).map(kind.keyOf).sort()).toEqual(
			rows(kind, 6, 10)
				.map((r) => kind.keyOf(removedKey(kind, r)))
				.sort(),
		);
		expect(approved.hints).toContain(`approved plan ${planId}`);
	});

	test('an approved plan with a grace: the plan is of the removals due', async () => {
		const staticData: IDataObject = {};
		const grace = { [kind.after]: 2 * SECOND_IN_DAYS };
		await sync(rows(kind, 0, 4), staticData);
		await sync(rows(kind, 0, 2), staticData, grace);
		const early = await sync(rows(kind, 0, 2), staticData, { ...grace, dryRun: true });
		expect(count(actions(early.items), 'missing')).toBe(2);
		await sleep(2_500);
		const dry = await sync(rows(kind, 0, 2), staticData, { ...grace, dryRun: true });
		expect(count(actions(dry.items), kind.removed)).toBe(2);
		expect(dry.items[0].json.planId).not.toBe(early.items[0].json.planId);
		const run = await sync(rows(kind, 0, 2), staticData, {
			...grace,
			approvedPlan: dry.items[0].json.planId,
		});
		expect(run.error).toBeUndefined();
		expect(run.sent.filter(kind.removes)).toHaveLength(2);
	});

	test('a bounded run whose memory was not saved: the next runs converge', async () => {
		const staticData: IDataObject = {};
		const all = rows(kind, 0, 12);
		await sync(all, staticData, { maxWritesPerRun: 5 });
		const lost = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		// Saved in another n8n process (a queue-mode worker): this process does not know of it.
		const lostRun = await sync(all, lost, { maxWritesPerRun: 5 }, { workflowId: 'elsewhere' });
		const lostKeys = lostRun.sent.map(kind.keyOf);
		expect(lostKeys).toHaveLength(5);
		for (let night = 0; night < 3; night++) await sync(all, staticData, { maxWritesPerRun: 5 });
		const done = await sync(all, staticData, { maxWritesPerRun: 5 });
		expect(done.sent).toEqual([]);
		const keys = writes().map(kind.keyOf);
		expect(new Set(keys).size).toBe(12);
		// Written twice at most, and only what the lost run wrote: the catalog's listing shows it.
		const twice = [...new Set(keys)].filter((key) => count(keys, key) > 1);
		expect(twice.every((key) => lostKeys.includes(key) && count(keys, key) === 2)).toBe(true);
		if (kind.path === COURSES) expect(twice).toEqual([]);
		else expect(twice).toHaveLength(5);
	});

	test('runs whose static data was copied before the previous runs ended write nothing twice', async () => {
		// n8n copies the static data when an execution starts and saves it when it ends: a run
		// started while the previous one was still ending gets the memory from before that run.
		const all = rows(kind, 0, 12);
		const copies: IDataObject[] = [{}];
		for (let night = 0; night < 3; night++) {
			const copy = JSON.parse(JSON.stringify(copies[Math.max(0, night - 1)])) as IDataObject;
			const run = await sync(all, copy, { maxWritesPerRun: 4 });
			expect(run.sent).toHaveLength(4);
			copies.push(copy);
		}
		// Two runs behind: the copy the second run started from.
		const done = await sync(all, JSON.parse(JSON.stringify(copies[1])) as IDataObject);
		expect(done.sent).toEqual([]);
		const keys = writes().map(kind.keyOf);
		expect(keys.length).toBe(12);
		expect(new Set(keys).size).toBe(12);
	});

	test('a grace clock survives a run whose memory was not saved (the older clock holds)', async () => {
		const staticData: IDataObject = {};
		const grace = { [kind.after]: 3 * SECOND_IN_DAYS };
		await sync(rows(kind, 0, 10), staticData);
		await sync(rows(kind, 0, 9), staticData, { ...grace, [kind.share]: 20 });
		await sleep(1_500);
		const lost = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		await sync(rows(kind, 0, 9), lost, { ...grace, [kind.share]: 20 });
		await sleep(2_000);
		const run = await sync(rows(kind, 0, 9), staticData, { ...grace, [kind.share]: 20 });
		expect(run.sent.filter(kind.removes)).toHaveLength(1);
	});

	test('a run that starts while another run of the same sync is running writes nothing', async () => {
		fixture.sandbox.configure({ transactionDelayMs: 300 });
		const staticData: IDataObject = {};
		const all = rows(kind, 0, 6);
		const first = sync(all, staticData);
		for (let i = 0; i < 400 && writes().length === 0; i++) await sleep(5);
		// n8n gives each execution its own copy of the workflow's static data, and saves it whole
		// when the execution changed it: the overlapping run must not even create its memory there.
		const itsOwnCopy = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		const before = JSON.stringify(itsOwnCopy);
		const overlapping = await sync(all, itsOwnCopy);
		expect(actions(overlapping.items)).toEqual(all.map(() => 'deferred'));
		expect(overlapping.hints).toMatch(/Another run of this sync .* has been running/);
		expect(JSON.stringify(itsOwnCopy)).toBe(before);
		expect((await first).error).toBeUndefined();
		const next = await sync(all, staticData);
		expect(next.sent).toEqual([]);
		// Each written once, by the first run alone.
		expect(writes().map(kind.keyOf).sort()).toEqual(
			all.map((r) => kind.keyOf(removedKey(kind, r))).sort(),
		);
	});

	test('Output: changes leaves out the unchanged; summary is one item with the changes', async () => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 6), staticData);
		const changes = await sync(rows(kind, 0, 7), staticData, { output: 'changes' });
		expect(changes.items.map((i) => [i.json.action, i.pairedItem])).toEqual([
			[kind.created, { item: 6 }],
		]);

		// Row 5 fails validation but still names its entry (never removed); row 6 left.
		const broken = { ...kind.row(5), url: 'not a web address', due: 'not a date' };
		const input = [...rows(kind, 0, 5), broken, ...rows(kind, 7, 9)];
		const summary = await sync(
			input,
			staticData,
			{ output: 'summary', [kind.share]: 100 },
			{ continueOnFail: true },
		);
		expect(summary.items).toHaveLength(1);
		const json = summary.items[0].json;
		expect(json).toMatchObject({
			dryRun: false,
			needsApproval: false,
			counts: { [kind.created]: 2, unchanged: 5, [kind.removed]: 1, failed: 1 },
			changesOmitted: 0,
		});
		const listed = json.changes as IDataObject[];
		expect(listed.map((c) => c.action).sort()).toEqual(
			[kind.created, kind.created, kind.removed, 'failed'].sort(),
		);
		expect(listed.find((c) => c.action === 'failed')).toMatchObject({
			item: 5,
			error: expect.any(String),
		});
	});

	test('a summary lists at most 1,000 changes and counts the rest', async () => {
		const dry = await sync(rows(kind, 0, 1_003), {}, { dryRun: true, output: 'summary' });
		const json = dry.items[0].json;
		expect((json.changes as unknown[]).length).toBe(1_000);
		expect(json.changesOmitted).toBe(3);
		expect((json.counts as IDataObject)[kind.created]).toBe(1_003);
	});

	test('Memory Key: a dry-run node plans from the memory the real node saved', async () => {
		const staticData: IDataObject = {};
		const shared = { memoryKey: 'nightly' };
		await sync(rows(kind, 0, 6), staticData, shared, { nodeName: 'Sync' });
		const dry = await sync(
			rows(kind, 0, 5),
			staticData,
			{ ...shared, dryRun: true, [kind.share]: 100 },
			{ nodeName: 'Dry run' },
		);
		expect(actions(dry.items)).toEqual([...Array(5).fill('unchanged'), kind.removed]);
		// Without the key the dry-run node has a memory of its own: it knows nothing.
		const alone = await sync(rows(kind, 0, 5), staticData, { dryRun: true }, { nodeName: 'Other' });
		expect(count(actions(alone.items), 'unchanged')).toBe(kind.path === COURSES ? 5 : 0);
		// A dry run never saves: the real node's memory is as it left it.
		const real = await sync(rows(kind, 0, 6), staticData, shared, { nodeName: 'Sync' });
		expect(real.sent).toEqual([]);
	});

	test.each([
		['in the far future', 'zzzzzzzzz'],
		['at 0', '0'],
		['before 1970', '-1'],
		['before any sync could have started it', '1'],
		['unreadable', 'x.y'],
	])(
		'a grace clock %s is damage: dropped with a hint, its grace starts again, nothing written',
		async (_, clock) => {
			const staticData: IDataObject = {};
			const grace = { [kind.after]: 2, [kind.share]: 20 };
			await sync(rows(kind, 0, 10), staticData);
			await sync(rows(kind, 0, 9), staticData, grace);
			const stored = JSON.stringify(staticData);
			expect(stored.match(/~[0-9a-z]+/g)).toHaveLength(1);
			const damaged = JSON.parse(stored.replace(/~[0-9a-z]+/, `~${clock}`)) as IDataObject;
			const started = Date.now();
			const run = await sync(rows(kind, 0, 9), damaged, grace);
			expect(run.error).toBeUndefined();
			expect(run.sent).toEqual([]);
			const missing = run.items.filter((i) => i.json.action === 'missing');
			expect(missing).toHaveLength(1);
			const removeAfter = Date.parse(String(missing[0].json.removeAfter));
			expect(removeAfter).toBeGreaterThanOrEqual(started - 1_000 + 2 * DAY_MS);
			expect(removeAfter).toBeLessThanOrEqual(Date.now() + 2 * DAY_MS);
			expect(run.hints).toMatch(/1 remembered entries were malformed .* dropped/);
			// The clock started again is kept: the next run reads it as a time, with no hint.
			const next = await sync(rows(kind, 0, 9), damaged, grace);
			expect(next.sent).toEqual([]);
			expect(next.hints).not.toMatch(/malformed/);
		},
	);

	test('an approval is spent once carried out: given again it is refused as used; a new review approves', async () => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 10), staticData);
		const dry = await sync(rows(kind, 0, 6), staticData, { dryRun: true, output: 'summary' });
		const planId = String(dry.items[0].json.planId);
		const approved = await sync(rows(kind, 0, 6), staticData, { approvedPlan: planId });
		expect(approved.error).toBeUndefined();
		expect(approved.sent.filter(kind.removes)).toHaveLength(4);

		// The roster's four come back and leave again; archived courses cannot come back, so
		// three more courses leave.
		const roster = kind.path === USER_COURSES;
		if (roster) expect((await sync(rows(kind, 0, 10), staticData)).sent).toHaveLength(4);
		const leaving = roster ? rows(kind, 0, 6) : rows(kind, 0, 3);
		const again = await sync(leaving, staticData, { approvedPlan: planId });
		expect(again.error?.message).toMatch(
			new RegExp(
				`^Nothing was written: .*; Approved Plan ${escaped(planId)} was already carried out`,
			),
		);
		expect(String((again.error as { description?: string }).description)).toMatch(
			/An approval goes ahead once/,
		);
		expect(again.sent).toEqual([]);

		const review = await sync(leaving, staticData, { dryRun: true });
		const fresh = String(review.items[0].json.planId);
		expect(fresh).not.toBe(planId);
		const next = await sync(leaving, staticData, { approvedPlan: fresh });
		expect(next.error).toBeUndefined();
		expect(next.sent.filter(kind.removes)).toHaveLength(roster ? 4 : 3);
	});

	test('a stale approval says it was given, does not match, and by how many removals', async () => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 20), staticData);
		const dry = await sync(rows(kind, 0, 15), staticData, { dryRun: true });
		const planId = String(dry.items[0].json.planId);
		const many = kind.path === COURSES ? 'courses' : 'assignments';
		const remove = kind.verb.toLowerCase();

		const more = await sync(rows(kind, 0, 12), staticData, { approvedPlan: planId });
		expect(more.error?.message).toBe(
			`Nothing was written: the sync would ${remove} 8 of 20 ${many} (40 %), more than Max ${kind.verb} Share (10 %); Approved Plan ${planId} does not match this run's plan: this run would ${remove} 3 ${many} more than the approved plan (8, not 5)`,
		);
		const fewer = await sync(rows(kind, 0, 17), staticData, { approvedPlan: planId });
		expect(fewer.error?.message).toMatch(
			/; Approved Plan \S+ does not match this run's plan: .* 2 \w+ fewer than the approved plan \(3, not 5\)$/,
		);
		expect([...more.sent, ...fewer.sent]).toEqual([]);
	});

	test.each([
		[
			'Max Share',
			(kind: Kind) => ({ [kind.share]: 30 }),
			'the same number (4)',
			'Max {verb} Share',
		],
		[
			'the Missing switch',
			(kind: Kind) => ({ [kind.missing]: false }),
			'(4, not 0)',
			'{verb} Missing',
		],
		['grace', (kind: Kind) => ({ [kind.after]: 2 }), '(4, not 0)', '{verb} After Days'],
		['Memory Key', () => ({ memoryKey: 'review' }), '', 'Memory Key'],
	])(
		"an approved plan from a dry-run node with another %s is refused, saying the nodes' options differ",
		async (_, dryOptions, count, option) => {
			const staticData: IDataObject = {};
			const shared = { memoryKey: 'nightly' };
			await sync(rows(kind, 0, 10), staticData, shared);
			const dry = await sync(
				rows(kind, 0, 6),
				staticData,
				{ ...shared, dryRun: true, ...dryOptions(kind) },
				{ nodeName: 'Plan the night' },
			);
			const planId = String(dry.items[0].json.planId);
			const run = await sync(rows(kind, 0, 6), staticData, { ...shared, approvedPlan: planId });
			const named = option.replace('{verb}', kind.verb);
			expect(run.error?.message).toContain(
				`Approved Plan ${planId} does not match this run's plan`,
			);
			expect(run.error?.message).toContain(count);
			expect(run.error?.message).toMatch(
				new RegExp(
					`, and it was planned with other options than this node's: (.+, )?${escaped(named)}(, .+)?$`,
				),
			);
			expect(String((run.error as { description?: string }).description)).toMatch(
				/A dry-run node's plan matches the real node's only when both nodes have the same options/,
			);
			expect(run.sent).toEqual([]);
		},
	);

	test.each([
		['1e9 days', 1e9],
		['an expression giving Infinity', '={{ 1/0 }}'],
	])('%s of grace is refused by name before anything is written', async (_, after) => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 10), staticData);
		const run = await sync([...rows(kind, 0, 9), kind.row(10)], staticData, {
			[kind.after]: after,
			[kind.share]: 20,
		});
		expect(run.error?.message).toBe(
			`Invalid options on item 0: Options → Safety: ${kind.verb} After Days: must be at most 36500 days (a century)`,
		);
		expect(run.sent).toEqual([]);
	});

	test.each([
		['Safety: {verb} After Days', (kind: Kind) => kind.after],
		['Safety: Max Writes per Run', () => 'maxWritesPerRun'],
		['Safety: Max {verb} Share', (kind: Kind) => kind.share],
		['Approved Plan', () => 'approvedPlan'],
		['Dry Run (Writes Nothing)', () => 'dryRun'],
		['Memory Key', () => 'memoryKey'],
	])(
		'a safety option whose expression gives nothing (%s) is an error, not its default',
		async (label, option) => {
			const staticData: IDataObject = {};
			await sync(rows(kind, 0, 10), staticData);
			const input = [...rows(kind, 0, 9), ...rows(kind, 10, 13)];
			const run = await sync(input, staticData, {
				[kind.share]: 20,
				maxWritesPerRun: 1,
				[option(kind)]: '={{ $json.none }}',
			});
			expect(run.error?.message).toBe(
				`Invalid options on item 0: Options → ${label.replace('{verb}', kind.verb)}: its expression gave no value`,
			);
			expect(run.sent).toEqual([]);
		},
	);

	test.each([
		['null', '={{ null }}'],
		['empty text', "={{ '' }}"],
		['NaN', '={{ 0/0 }}'],
		['an empty expression', '='],
	])('an expression giving %s for a safety option is the same error', async (_, expression) => {
		const run = await sync(rows(kind, 0, 3), {}, { maxWritesPerRun: expression });
		expect(run.error?.message).toBe(
			'Invalid options on item 0: Options → Safety: Max Writes per Run: its expression gave no value',
		);
		expect(run.sent).toEqual([]);
	});

	test('two real syncs on one Memory Key: the second is refused, naming both; a dry run stays allowed', async () => {
		const staticData: IDataObject = {};
		const shared = { memoryKey: 'nightly', [kind.share]: 100 };
		const first = await sync(rows(kind, 0, 4), staticData, shared, { nodeName: 'Roster A' });
		expect(first.sent).toHaveLength(4);
		const second = await sync(rows(kind, 4, 8), staticData, shared, { nodeName: 'Roster B' });
		expect(second.error?.message).toBe(
			'Nothing was written: Memory Key "nightly" is the memory of the real sync "Roster A", and this node, "Roster B", is a real sync too',
		);
		expect(String((second.error as { description?: string }).description)).toMatch(
			/Give "Roster B" a Memory Key of its own \(or none\), or turn on its Dry Run.*If "Roster A" was deleted and "Roster B" replaces it, rename "Roster B" to "Roster A" once/,
		);
		expect(second.sent).toEqual([]);
		// Night after night: the first keeps its entries, the second stays refused.
		expect(
			(await sync(rows(kind, 0, 4), staticData, shared, { nodeName: 'Roster A' })).sent,
		).toEqual([]);
		expect(
			(await sync(rows(kind, 4, 8), staticData, shared, { nodeName: 'Roster B' })).error,
		).toBeDefined();
		const dry = await sync(
			rows(kind, 0, 4),
			staticData,
			{ ...shared, dryRun: true },
			{ nodeName: 'Plan' },
		);
		expect(dry.error).toBeUndefined();
		expect(actions(dry.items)).toEqual(Array(4).fill('unchanged'));
		expect(writes().filter(kind.removes)).toEqual([]);
	});

	test('a real sync on a Memory Key may be renamed, or replaced by a node of its name', async () => {
		const staticData: IDataObject = {};
		const shared = { memoryKey: 'nightly' };
		await sync(rows(kind, 0, 4), staticData, shared, { nodeName: 'Sync', nodeId: 'n-1' });
		// Renamed: n8n keeps its id.
		const renamed = await sync(rows(kind, 0, 4), staticData, shared, {
			nodeName: 'Roster',
			nodeId: 'n-1',
		});
		expect(renamed.error).toBeUndefined();
		expect(renamed.sent).toEqual([]);
		// Deleted and replaced by a new node of another name: refused, until it takes the old name.
		const other = await sync(rows(kind, 0, 5), staticData, shared, {
			nodeName: 'New sync',
			nodeId: 'n-2',
		});
		expect(other.error?.message).toMatch(
			/is the memory of the real sync "Roster", and this node, "New sync"/,
		);
		const replaced = await sync(rows(kind, 0, 5), staticData, shared, {
			nodeName: 'Roster',
			nodeId: 'n-2',
		});
		expect(replaced.error).toBeUndefined();
		expect(actions(replaced.items)).toEqual([...Array(4).fill('unchanged'), kind.created]);
		// Kept by its id from then on, whatever its name.
		const back = await sync(rows(kind, 0, 5), staticData, shared, {
			nodeName: 'New sync',
			nodeId: 'n-2',
		});
		expect(back.error).toBeUndefined();
		expect(back.sent).toEqual([]);
	});

	test('the share in force is in the hints and the summary', async () => {
		const staticData: IDataObject = {};
		await sync(rows(kind, 0, 10), staticData);
		const run = await sync(rows(kind, 0, 9), staticData, { output: 'summary', [kind.share]: 15 });
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({
			[kind.share]: 15,
			guard: expect.stringContaining(`(10 %), within Max ${kind.verb} Share (15 %)`),
		});
		expect(run.hints).toContain(`(10 %), within Max ${kind.verb} Share (15 %)`);
		const off = await sync(rows(kind, 0, 9), staticData, {
			[kind.missing]: false,
			output: 'summary',
		});
		expect(off.items[0].json[kind.share]).toBe(10);
		expect(off.hints).toContain(
			`${kind.verb} Missing is off: nothing is ${kind.removed}, and Max ${kind.verb} Share (10 %) has nothing to guard.`,
		);
	});
});

/** The body key a removal of row `n` (or of a row object) names. */
function removedKey(kind: Kind, row: number | IDataObject): IDataObject {
	const value = typeof row === 'number' ? kind.row(row) : row;
	return kind.path === COURSES ? { external_id: value.external_id } : { email_id: value.email };
}

describe('a dry run of Sync Assignments', () => {
	const kind = KINDS.roster;
	const requests = () => fixture.sandbox.requests();

	beforeEach(async () => await kind.seed());

	test('says what it did not check, and flags pairs whose course the catalog does not have', async () => {
		const before = requests().length;
		const input = [
			kind.row(0),
			{ ...kind.row(1), course: 'safety-2027' },
			{ ...kind.row(2), course: 'SAFETY' },
			{ ...kind.row(3), course: 'safety-2027' },
		];
		const dry = await runNode({
			credentials: fixture.credentials(),
			items: input,
			mode: 'trigger',
			parameters: { ...kind.parameters, options: { dryRun: true } },
		});
		expect(dry.error).toBeUndefined();
		expect(dry.items.map((i) => [i.json.action, i.json.warning])).toEqual([
			['assigned', undefined],
			['assigned', expect.stringContaining('has no course "safety-2027"')],
			['assigned', expect.stringContaining('has no course "SAFETY" (it has "safety")')],
			['assigned', expect.stringContaining('has no course "safety-2027"')],
		]);
		const hints = (dry.run.data.resultData.runData.Node[0].hints ?? [])
			.map((h) => h.message)
			.join('\n');
		expect(hints).toContain(
			`3 planned assignments name a course the platform's catalog does not have: "safety-2027" (2), "SAFETY" (1).`,
		);
		expect(hints).toMatch(
			/sends no assignment: it does not find out whether each learner has an account/,
		);
		const sent = requests().slice(before);
		expect(sent.filter((r) => r.method === 'POST' && r.path === USER_COURSES)).toEqual([]);
		expect(sent.filter((r) => r.path === COURSES).map((r) => r.method)).toEqual(['GET']);

		const summary = await runNode({
			credentials: fixture.credentials(),
			items: input,
			mode: 'trigger',
			parameters: { ...kind.parameters, options: { dryRun: true, output: 'summary' } },
		});
		const changes = summary.items[0].json.changes as IDataObject[];
		expect(changes.filter((c) => c.warning !== undefined)).toHaveLength(3);
	});

	test('lists nothing when it plans no assignment', async () => {
		const staticData: IDataObject = {};
		const all = rows(kind, 0, 3);
		await runNode({
			credentials: fixture.credentials(),
			items: all,
			staticData,
			mode: 'trigger',
			parameters: kind.parameters,
		});
		const before = requests().length;
		const dry = await runNode({
			credentials: fixture.credentials(),
			items: all,
			staticData,
			mode: 'trigger',
			parameters: { ...kind.parameters, options: { dryRun: true } },
		});
		expect(actions(dry.items)).toEqual(['unchanged', 'unchanged', 'unchanged']);
		expect(
			requests()
				.slice(before)
				.filter((r) => r.path === COURSES),
		).toEqual([]);
	});
});

describe('Sync Catalog with a dry-run node of its own memory', () => {
	const kind = KINDS.catalog;

	test('plans the real node’s plan ID when nothing changed, and its approval carries', async () => {
		const staticData: IDataObject = {};
		const run = async (items: IDataObject[], nodeName: string, options: IDataObject = {}) =>
			await runNode({
				credentials: fixture.credentials(),
				items,
				staticData,
				mode: 'trigger',
				nodeName,
				parameters: { ...kind.parameters, options: { archiveMissing: true, ...options } },
			});
		await run(rows(kind, 0, 10), 'Sync');
		const dry = await run(rows(kind, 0, 6), 'Dry run', { dryRun: true });
		const planId = String(dry.items[0].json.planId);
		const refused = await run(rows(kind, 0, 6), 'Sync');
		expect(String((refused.error as { description?: string }).description)).toContain(planId);
		const approved = await run(rows(kind, 0, 6), 'Sync', { approvedPlan: planId });
		expect(approved.error).toBeUndefined();
		expect(approved.items.filter((i) => i.json.action === 'archived')).toHaveLength(4);
	});
});
