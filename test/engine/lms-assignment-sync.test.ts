import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { runNode, type SingleNodeRun } from '../helpers/workflows';

const fixture = useSandbox();

const USER_COURSES = '/api/developer/v2/user_courses.json';
const COURSES = '/api/developer/v2/courses.json';

interface Pair extends IDataObject {
	email: string;
	course: string;
	due?: string;
}

const roster = (learners: number, courses: string[], due = '2026-12-01'): Pair[] =>
	Array.from({ length: learners }, (_, n) =>
		courses.map((course) => ({ email: `learner${n}@example.com`, course, due })),
	).flat();

async function seedCourses(ids: string[]) {
	const run = await runNode({
		credentials: fixture.credentials(),
		items: ids.map((id) => ({ id })),
		parameters: {
			resource: 'course',
			operation: 'upsert',
			externalId: '={{ $json.id }}',
			name: '={{ $json.id }}',
			url: '=https://learn.test/{{ $json.id }}',
		},
	});
	expect(run.error).toBeUndefined();
}

interface SyncRun extends Pick<SingleNodeRun, 'continueOnFail' | 'signal' | 'workflowId'> {
	items: IDataObject[];
	staticData: IDataObject;
	options?: INodeParameters;
}

async function sync({ options = {}, ...run }: SyncRun) {
	const result = await runNode({
		credentials: fixture.credentials(),
		...run,
		mode: 'trigger',
		parameters: {
			resource: 'assignment',
			operation: 'sync',
			email: '={{ $json.email }}',
			externalId: '={{ $json.course }}',
			additionalFields: { dueDate: '={{ $json.due }}' },
			options,
		},
	});
	const hints = (
		result.run.data.resultData.runData.Node?.[0] as { hints?: Array<{ message: string }> }
	)?.hints?.map((h) => h.message);
	return { ...result, hints: hints ?? [] };
}

const writes = () =>
	fixture.sandbox
		.requests()
		.filter((r) => r.method === 'POST' && r.path === USER_COURSES)
		.map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as IDataObject);
const actions = (items: INodeExecutionData[]) => items.map((i) => i.json.action);
const stored = (email: string, course: string) =>
	fixture.sandbox.state().assignments[`${email.toLowerCase()}|${course}`];
const sentSince = (before: number) => writes().slice(before);

describe('assignment sync', () => {
	beforeEach(async () => await seedCourses(['safety', 'privacy', 'onboarding']));

	test('assigns new pairs, then writes nothing; a moved date is updated; a leaver withdrawn', async () => {
		const staticData: IDataObject = {};
		const first = roster(5, ['safety', 'privacy']);
		const night1 = await sync({ items: first, staticData, options: { withdrawMissing: true } });
		expect(night1.error).toBeUndefined();
		expect(actions(night1.items)).toEqual(first.map(() => 'assigned'));
		expect(stored('learner3@example.com', 'privacy')).toMatchObject({
			status: 'assigned',
			due_date: '2026-12-01',
		});

		let before = writes().length;
		const same = await sync({ items: first, staticData, options: { withdrawMissing: true } });
		expect(actions(same.items)).toEqual(first.map(() => 'unchanged'));
		expect(sentSince(before)).toEqual([]);

		// learner4 leaves (2 pairs of 10 = 20 %: the guard is raised for it); learner0's date moves.
		const next = first
			.filter((p) => p.email !== 'learner4@example.com')
			.map((p) =>
				p.email === 'learner0@example.com' && p.course === 'safety'
					? { ...p, due: '2027-01-15' }
					: p,
			);
		before = writes().length;
		const night2 = await sync({
			items: next,
			staticData,
			options: { withdrawMissing: true, maxWithdrawShare: 20 },
		});
		expect(night2.error).toBeUndefined();
		expect(actions(night2.items)).toEqual([
			'updated',
			...next.slice(1).map(() => 'unchanged'),
			'withdrawn',
			'withdrawn',
		]);
		expect(sentSince(before)).toEqual([
			{
				email_id: 'learner0@example.com',
				external_id: 'safety',
				status: 'assigned',
				due_date: '2027-01-15',
			},
			expect.objectContaining({ email_id: 'learner4@example.com', status: 'withdraw' }),
			expect.objectContaining({ email_id: 'learner4@example.com', status: 'withdraw' }),
		]);
		expect(stored('learner0@example.com', 'safety').due_date).toBe('2027-01-15');
		expect(stored('learner4@example.com', 'safety').status).toBe('withdraw');
		expect(night2.hints[0]).toBe(
			'Sync Assignments: 0 assigned, 1 updated, 7 unchanged, 2 withdrawn, 0 failed',
		);

		// The leaver comes back: assigned again.
		before = writes().length;
		const back = await sync({ items: first, staticData, options: { withdrawMissing: true } });
		expect(actions(back.items).filter((a) => a !== 'unchanged')).toEqual([
			'updated',
			'assigned',
			'assigned',
		]);
		expect(stored('learner4@example.com', 'safety').status).toBe('assigned');
		expect(sentSince(before)).toHaveLength(3);
	});

	test('Skip Unchanged off writes every pair', async () => {
		const staticData: IDataObject = {};
		const pairs = roster(2, ['safety']);
		await sync({ items: pairs, staticData });
		const before = writes().length;
		const again = await sync({ items: pairs, staticData, options: { skipUnchanged: false } });
		expect(actions(again.items)).toEqual(['updated', 'updated']);
		expect(sentSince(before)).toHaveLength(2);
	});

	test('the guard refuses withdrawing too much: nothing at all is written', async () => {
		const staticData: IDataObject = {};
		const pairs = roster(10, ['safety']);
		await sync({ items: pairs, staticData });
		const before = writes().length;
		const truncated = pairs.slice(0, 3).map((p) => ({ ...p, due: '2027-02-01' }));
		const refused = await sync({
			items: truncated,
			staticData,
			options: { withdrawMissing: true },
		});
		expect(refused.error?.message).toBe(
			'Nothing was written: the sync would withdraw 7 of 10 assignments (70 %), more than Max Withdraw Share (10 %)',
		);
		expect(sentSince(before)).toEqual([]);
		// The refused run remembered nothing new: the full roster is still unchanged.
		const full = await sync({ items: pairs, staticData, options: { withdrawMissing: true } });
		expect(actions(full.items)).toEqual(pairs.map(() => 'unchanged'));
	});

	test('duplicate pairs fail by name and are written once by nobody; an invalid row is never withdrawn', async () => {
		const staticData: IDataObject = {};
		const pairs = roster(4, ['safety']);
		await sync({ items: pairs, staticData });
		const before = writes().length;
		const run = await sync({
			items: [
				pairs[0],
				{ ...pairs[1], email: 'LEARNER1@example.com', due: '2027-01-01' },
				{ ...pairs[1], due: '2027-03-01' },
				{ ...pairs[2], due: 'not a date' },
				pairs[3],
			],
			staticData,
			continueOnFail: true,
			options: { withdrawMissing: true, maxWithdrawShare: 100 },
		});
		expect(run.items.map((i) => i.json.error ?? i.json.action)).toEqual([
			'unchanged',
			expect.stringContaining('is on items 1, 2'),
			expect.stringContaining('is on items 1, 2'),
			expect.stringContaining('Due Date'),
			'unchanged',
		]);
		expect(sentSince(before)).toEqual([]);
		expect(stored('learner2@example.com', 'safety').status).toBe('assigned');
	});

	test('two rosters on one client never withdraw each other’s assignments', async () => {
		const compliance: IDataObject = {};
		const onboarding: IDataObject = {};
		await sync({ items: roster(3, ['safety']), staticData: compliance });
		await sync({
			items: roster(3, ['onboarding']),
			staticData: onboarding,
			workflowId: 'onboarding',
		});
		const before = writes().length;
		const run = await sync({
			items: roster(3, ['onboarding']).slice(0, 2),
			staticData: onboarding,
			workflowId: 'onboarding',
			options: { withdrawMissing: true, maxWithdrawShare: 50 },
		});
		expect(run.error).toBeUndefined();
		expect(sentSince(before)).toEqual([
			expect.objectContaining({
				email_id: 'learner2@example.com',
				external_id: 'onboarding',
				status: 'withdraw',
			}),
		]);
		for (let n = 0; n < 3; n++)
			expect(stored(`learner${n}@example.com`, 'safety').status).toBe('assigned');
	});

	test('two rosters holding one pair: the one that drops it withdraws it and says what the other will not do', async () => {
		const compliance: IDataObject = {};
		const onboarding: IDataObject = {};
		const shared = roster(2, ['safety']);
		await sync({ items: shared, staticData: compliance });
		await sync({ items: shared, staticData: onboarding, workflowId: 'onboarding' });
		const dropped = await sync({
			items: shared.slice(0, 1),
			staticData: onboarding,
			workflowId: 'onboarding',
			options: { withdrawMissing: true, maxWithdrawShare: 50 },
		});
		expect(dropped.hints.join('\n')).toMatch(/withdrawn for every roster.*Skip Unchanged off/);
		expect(stored('learner1@example.com', 'safety').status).toBe('withdraw');

		const holder = await sync({ items: shared, staticData: compliance });
		expect(actions(holder.items)).toEqual(['unchanged', 'unchanged']);
		expect(holder.hints.join('\n')).not.toMatch(/withdrawn for every roster/);
		expect(stored('learner1@example.com', 'safety').status).toBe('withdraw');

		const before = writes().length;
		await sync({ items: shared, staticData: compliance, options: { skipUnchanged: false } });
		expect(sentSince(before)).toHaveLength(2);
		expect(stored('learner1@example.com', 'safety').status).toBe('assigned');
	});

	test('a dry run reports the plan, refusal included, and writes and remembers nothing', async () => {
		const staticData: IDataObject = {};
		const pairs = roster(10, ['safety']);
		await sync({ items: pairs, staticData });
		const memory = JSON.stringify(staticData);
		const before = fixture.sandbox.requests().length;
		const planned = [
			{ ...pairs[0], due: '2027-05-05' },
			pairs[1],
			{ email: 'new@example.com', course: 'privacy' },
		];
		const dry = await sync({
			items: planned,
			staticData,
			options: { withdrawMissing: true, dryRun: true },
		});
		expect(dry.error).toBeUndefined();
		expect(dry.items.map((i) => [i.json.action, i.json.dryRun])).toEqual([
			['updated', true],
			['unchanged', true],
			['assigned', true],
			...Array.from({ length: 8 }, () => ['withdrawn', true]),
		]);
		expect(dry.hints.join('\n')).toMatch(/A real run would be refused: it would withdraw 8 of 10/);
		expect(
			fixture.sandbox
				.requests()
				.slice(before)
				.filter((r) => r.method === 'POST'),
		).toEqual([]);
		expect(JSON.stringify(staticData)).toBe(memory);
	});

	test('Sync Catalog has a dry run too', async () => {
		const staticData: IDataObject = {};
		const before = fixture.sandbox.requests().length;
		const dry = await runNode({
			credentials: fixture.credentials(),
			items: [{ external_id: 'new', name: 'New', url: 'https://learn.test/new' }],
			staticData,
			mode: 'trigger',
			parameters: {
				resource: 'course',
				operation: 'sync',
				inputMode: 'json',
				course: '={{ $json }}',
				options: { dryRun: true, archiveMissing: true, maxArchiveShare: 100 },
			},
		});
		expect(dry.error).toBeUndefined();
		// Archives follow the catalog's order, which the concurrent seed does not fix.
		const [first, ...archived] = dry.items.map((i) => [i.json.action, i.json.externalId]);
		expect(first).toEqual(['created', 'new']);
		expect(archived.sort()).toEqual([
			['archived', 'onboarding'],
			['archived', 'privacy'],
			['archived', 'safety'],
		]);
		expect(
			fixture.sandbox
				.requests()
				.slice(before)
				.filter((r) => r.method === 'POST' && r.path === COURSES),
		).toEqual([]);
		expect(JSON.stringify(staticData)).not.toMatch(/syncedCourses":\{"[^"]+":\{"/);
	});

	test('a run cancelled midway, and one whose memory was lost, converge: nothing lost, nothing withdrawn twice', async () => {
		const staticData: IDataObject = {};
		const pairs = roster(20, ['safety', 'privacy']);
		await sync({ items: pairs, staticData });
		fixture.sandbox.configure({ transactionDelayMs: 300 });
		const next = pairs
			.filter((p) => p.email !== 'learner19@example.com')
			.map((p, n) => (n % 3 === 0 ? { ...p, due: '2027-04-01' } : p));
		const controller = new AbortController();
		const running = sync({
			items: next,
			staticData,
			signal: controller.signal,
			options: { withdrawMissing: true },
		});
		const withdrawSent = () => writes().some((w) => w.status === 'withdraw');
		for (let i = 0; i < 600 && !withdrawSent(); i++) await sleep(5);
		controller.abort();
		await running;
		expect(withdrawSent()).toBe(true);
		const unfinished = () =>
			fixture.sandbox.state().transactions.filter((t) => t.status === 'initiated').length;
		for (let i = 0; i < 400 && unfinished() > 0; i++) await sleep(10);

		// A run whose memory is never saved (n8n stopped before the end of the execution).
		fixture.sandbox.configure({ transactionDelayMs: 20 });
		const lost = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		await sync({
			items: next,
			staticData: lost,
			options: { withdrawMissing: true },
			workflowId: 'the same workflow in the n8n process that stopped',
		});

		const again = await sync({ items: next, staticData, options: { withdrawMissing: true } });
		expect(again.error).toBeUndefined();
		for (const pair of next) {
			expect(stored(pair.email, pair.course)).toMatchObject({
				status: 'assigned',
				due_date: pair.due,
			});
		}
		for (const course of ['safety', 'privacy']) {
			expect(stored('learner19@example.com', course).status).toBe('withdraw');
			const withdrawals = writes().filter(
				(w) => w.email_id === 'learner19@example.com' && w.external_id === course,
			);
			expect(withdrawals.filter((w) => w.status === 'withdraw')).toHaveLength(1);
		}
		const before = writes().length;
		const third = await sync({ items: next, staticData, options: { withdrawMissing: true } });
		expect(actions(third.items)).toEqual(next.map(() => 'unchanged'));
		expect(writes().length).toBe(before);
	});
});
