import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Deadline } from '../../shared/pacing/deadline';
import { mapWithConcurrency } from '../../shared/items/router';
import type {
	CatalogCourse,
	RowDecision,
	SyncMemory,
	SyncPlan,
	SyncRow,
	SyncSettings,
} from './catalogSync';
import {
	ARCHIVE_PENDING,
	ARCHIVED,
	fingerprint,
	guardArchives,
	idKey,
	planSync,
	pruneMemory,
} from './catalogSync';
import { valuesFromListing, EXTERNAL_ID_FIELD, labelOf } from './courseContract';
import { archiveListedCourse, forEachCoursePage, upsertCourse } from './courses';
import type { CourseWrite } from './courses';
import type { LmsRun } from './index';
import { lmsConcurrency } from './index';
import { confirmWrite, getTransaction } from './transactions';

/** Listing a large catalog may take a while at the platform's rate: this bounds it. */
const LIST_DEADLINE_MS = 30 * 60_000;

/** A remembered archive's transaction is checked within this. */
const CHECK_DEADLINE_MS = 60_000;

export type RowOutcome =
	| { status: 'done'; json: IDataObject }
	| { status: 'failed'; error: unknown }
	| { status: 'notSent'; reason?: string };

export interface SyncCounts {
	created: number;
	updated: number;
	unchanged: number;
	archived: number;
	failed: number;
}

export interface SyncResult {
	rows: Map<number, RowOutcome>;
	/** One output per archive written (`action: archived`), or that failed (`action: failed`). */
	archived: IDataObject[];
	counts: SyncCounts;
	plan: SyncPlan;
	/** Said in the execution's hints. */
	notes: string[];
}

export interface SyncOptions extends SyncSettings {
	/** Each write's settings (wait, deadline), made fresh per write. */
	write: () => CourseWrite;
	/** Without Continue On Fail: the first failure stops every write not yet sent. */
	stopAfterFailure: boolean;
	/** Told how far the writes are. */
	progress?: (done: number, total: number) => void;
}

/**
 * Sync Catalog: the catalog listed once, the plan made whole (and checked by the archive
 * guard) before anything is sent, then only the writes the plan needs. `memory` is what the
 * node remembers for this client between executions; it is updated in place as writes are
 * confirmed, so an interrupted run leaves it true.
 */
export async function syncCatalog(
	run: LmsRun,
	rows: readonly SyncRow[],
	memory: SyncMemory,
	options: SyncOptions,
): Promise<SyncResult> {
	const notes: string[] = [];
	await settlePendingArchives(run, memory);
	const catalog = await listCatalog(run);
	const plan = planSync(rows, catalog, memory, options);
	if (plan.archiveSkipped) notes.push(`Nothing was archived: ${plan.archiveSkipped}.`);

	const guard = guardArchives(plan, options.maxArchiveShare);
	if (!guard.allowed) {
		throw new NodeOperationError(
			run.fns.getNode(),
			`Nothing was written: the sync ${guard.message}`,
			{
				description: `The input has ${rows.length} items; the catalog lists ${catalog.length} courses${
					plan.archivedBefore > 0
						? `, ${plan.archivedBefore} of them archived by this node before (not counted)`
						: ''
				}. A truncated or half-downloaded file looks like this. If the archives are meant, raise Options → Max Archive Share for one run (archived content cannot be made active again).`,
			},
		);
	}

	const outcomes = new Map<number, RowOutcome>();
	const counts: SyncCounts = { created: 0, updated: 0, unchanged: 0, archived: 0, failed: 0 };
	const writes: Array<Extract<RowDecision, { kind: 'create' | 'update' }>> = [];
	const failures: Array<{ itemIndex: number; error: unknown }> = [];
	for (const decision of plan.rows) {
		const failure = rowFailure(run, decision);
		if (failure) {
			failures.push({ itemIndex: decision.itemIndex, error: failure });
			outcomes.set(decision.itemIndex, { status: 'failed', error: failure });
			counts.failed++;
		} else if (decision.kind === 'unchanged') {
			outcomes.set(decision.itemIndex, {
				status: 'done',
				json: { externalId: decision.externalId, action: 'unchanged', courseId: decision.courseId },
			});
			counts.unchanged++;
		} else if (decision.kind === 'create' || decision.kind === 'update') {
			writes.push(decision);
		}
	}
	// Without Continue On Fail, a row that cannot be written stops the run before any write.
	if (options.stopAfterFailure && failures.length > 0) {
		for (const write of writes) outcomes.set(write.itemIndex, { status: 'notSent' });
		return { rows: outcomes, archived: [], counts, plan, notes };
	}

	const total = writes.length + plan.archive.length;
	let done = 0;
	const progressed = () => options.progress?.(++done, total);
	const stop = (error: unknown) => {
		if (options.stopAfterFailure) run.stopped = true;
		return error;
	};
	type Task = { write: (typeof writes)[number] } | { archive: CatalogCourse };
	const tasks: Task[] = [
		...writes.map((write) => ({ write })),
		...plan.archive.map((archive) => ({ archive })),
	];
	const archived: IDataObject[] = [];
	let archiveError: { error: unknown } | undefined;
	options.progress?.(0, total);
	/**
	 * Sends one write and, when asked, confirms it. A write once sent is never cut off by a
	 * cancelled execution: its answer names the transaction, and the memory records it, so a run
	 * cancelled midway leaves nothing in an unknown state. Only the wait is cancelled.
	 */
	const send = async (
		slot: { release(): void },
		itemIndex: number,
		post: (writeRun: LmsRun, write: CourseWrite) => Promise<IDataObject>,
	): Promise<{ output: IDataObject; confirmed: boolean }> => {
		const settings = options.write();
		// This write's view of the run: no request starts once the execution is cancelled,
		// though a request already sent is not cut off (its deadline has no cancel signal).
		const writeRun: LmsRun = {
			...run,
			get stopped() {
				return run.stopped || run.cancelSignal?.aborted === true;
			},
		};
		const budgetMs = settings.deadline.budgetMs;
		const sending = new Deadline(budgetMs, undefined, Date.now, { startsAtFirstSlot: true });
		const sent = await post(writeRun, { waitForCompletion: false, deadline: sending });
		if (!settings.waitForCompletion) return { output: sent, confirmed: false };
		// The write only waits from here on: its place in the pool goes to the next one.
		slot.release();
		const output = await confirmWrite(run, itemIndex, sent, run.deadline(sending.remainingMs()));
		return { output, confirmed: true };
	};

	await mapWithConcurrency(
		tasks,
		lmsConcurrency(run),
		async (task, _index, slot) => {
			if ('write' in task) {
				const { itemIndex, externalId, values, kind } = task.write;
				if (run.stopped || run.cancelSignal?.aborted) {
					outcomes.set(itemIndex, { status: 'notSent' });
					return;
				}
				const key = idKey(externalId);
				// Until confirmed, the platform may hold either body: remember neither.
				delete memory[key];
				try {
					const { output, confirmed } = await send(
						slot,
						itemIndex,
						async (writeRun, write) =>
							await upsertCourse(writeRun, itemIndex, values, {
								...write,
								keepCurrentValues: false,
							}),
					);
					if (confirmed) memory[key] = fingerprint(values);
					const action = kind === 'create' ? 'created' : 'updated';
					counts[action]++;
					outcomes.set(itemIndex, {
						status: 'done',
						json: {
							action,
							...output,
							...(kind === 'update' ? { changedFields: task.write.changed.map(labelOf) } : {}),
						},
					});
				} catch (error) {
					counts.failed++;
					outcomes.set(itemIndex, { status: 'failed', error: stop(error) });
				} finally {
					progressed();
				}
				return;
			}
			const course = task.archive;
			if (run.stopped || run.cancelSignal?.aborted) return;
			const key = idKey(course.externalId);
			const carrier = plan.rows.length > 0 ? plan.rows[plan.rows.length - 1].itemIndex : 0;
			try {
				const { output, confirmed } = await send(
					slot,
					carrier,
					async (writeRun, write) =>
						await archiveListedCourse(
							writeRun,
							carrier,
							course.externalId,
							course,
							{},
							{
								...write,
								onAccepted: (transactionId) => (memory[key] = ARCHIVE_PENDING + transactionId),
							},
						),
				);
				if (confirmed) memory[key] = ARCHIVED;
				counts.archived++;
				archived.push({ action: 'archived', ...output });
			} catch (error) {
				counts.failed++;
				archiveError ??= { error: stop(error) };
				archived.push({
					action: 'failed',
					externalId: course.externalId,
					error: error instanceof Error ? error.message : String(error),
				});
			} finally {
				progressed();
			}
		},
		run.cancelSignal,
	);
	// Courses that left the catalog (and the input) are forgotten.
	if (!run.cancelSignal?.aborted) {
		pruneMemory(memory, [
			...catalog.map((c) => c.externalId),
			...rows.flatMap((r) => (r.externalId === undefined ? [] : [r.externalId])),
		]);
	}
	// Without Continue On Fail a failed archive fails the run (row failures are the router's).
	if (options.stopAfterFailure && archiveError) throw run.mask(archiveError.error);
	return { rows: outcomes, archived, counts, plan, notes };
}

/** Why a row cannot be written, or undefined. */
function rowFailure(run: LmsRun, decision: RowDecision): unknown {
	const node = run.fns.getNode();
	switch (decision.kind) {
		case 'invalid':
			return decision.error;
		case 'duplicate':
			return new NodeOperationError(
				node,
				`External ID "${decision.externalId}" is on items ${decision.items.join(', ')}: none of them was written`,
				{
					itemIndex: decision.itemIndex,
					description:
						'Each course must appear once in the catalog input. Remove the extra rows (or tell them apart by external ID) and run again.',
				},
			);
		case 'archivedBefore':
			return new NodeOperationError(
				node,
				`Course "${decision.externalId}" was archived by this node on an earlier run, and archived content cannot be made active again`,
				{
					itemIndex: decision.itemIndex,
					description:
						'The course came back into the input after it was archived. Give it a new external ID to publish it again, or keep it archived (status archived).',
				},
			);
		default:
			return undefined;
	}
}

/** The whole catalog, once: external id, platform id and the values the listing carries. */
async function listCatalog(run: LmsRun): Promise<CatalogCourse[]> {
	const catalog: CatalogCourse[] = [];
	await forEachCoursePage(
		run,
		0,
		{ deadline: run.deadline(LIST_DEADLINE_MS, { startsAtFirstSlot: true }) },
		(courses) => {
			for (const course of courses) {
				const listed = valuesFromListing(course);
				const externalId = listed[EXTERNAL_ID_FIELD];
				if (typeof externalId !== 'string' && typeof externalId !== 'number') continue;
				catalog.push({
					externalId: String(externalId),
					id: course.id === undefined || course.id === null ? undefined : String(course.id),
					listed,
				});
			}
			return true;
		},
	);
	return catalog;
}

/**
 * Archives accepted on an earlier run but not confirmed (it was interrupted, or did not wait):
 * each transaction is read once. Done: remembered as archived. Failed or unknown: forgotten, so
 * the course is archived again if it is still missing. Still running: left pending.
 */
async function settlePendingArchives(run: LmsRun, memory: SyncMemory): Promise<void> {
	for (const [key, value] of Object.entries(memory)) {
		if (!value.startsWith(ARCHIVE_PENDING)) continue;
		const transactionId = value.slice(ARCHIVE_PENDING.length);
		try {
			const transaction = await getTransaction(
				run,
				0,
				transactionId,
				run.deadline(CHECK_DEADLINE_MS, { startsAtFirstSlot: true }),
			);
			if (transaction.status === 'success') memory[key] = ARCHIVED;
			else if (transaction.status !== 'initiated') delete memory[key];
		} catch {
			if (run.cancelSignal?.aborted)
				throw new NodeOperationError(run.fns.getNode(), 'The execution was cancelled');
			delete memory[key];
		}
	}
}
