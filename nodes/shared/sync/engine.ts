import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome, PoolPlace, Run } from '../items/operation';
import { mapWithConcurrency } from '../items/router';
import type { Memory } from './memory';
import { OURS_UNCONFIRMED, REMOVAL_PENDING, REMOVED } from './memory';

export interface SyncRow<V> {
	itemIndex: number;
	/** Read even from an invalid row where possible: a row that names an entry keeps it. */
	id?: string;
	values?: V;
	error?: unknown;
}

export interface Existing<L> {
	id: string;
	listed?: L;
}

export interface Reading<L> {
	existing: Array<Existing<L>>;
	/** Why the reading may miss entries: then nothing is removed and nothing forgotten. */
	incomplete?: string;
	notes?: string[];
}

export type Change =
	| { kind: 'new' | 'changed'; changed: string[] }
	| { kind: 'same' }
	| { kind: 'refused'; error: unknown };

export interface Sent {
	output: IDataObject;
	confirmed: boolean;
}

export interface SyncWords {
	title: string;
	idName: string;
	/** What the current state is: "courses listed", "assignments this node made". */
	existing: string;
	/** Whose spelling a look-alike should take: "the platform lists". */
	spelledBy: string;
	one: string;
	many: string;
	created: string;
	updated: string;
	removed: string;
	remove: string;
	guardOption: string;
	guardAdvice: string;
	updateNote?: string;
	removeNote?: string;
}

export interface SyncContract<V, L> {
	words: SyncWords;
	/** The memory key of an id; a contract without a listing must be able to turn it back. */
	key(id: string): string;
	idOfKey?(key: string): string;
	/** An id as messages quote it: `"c-1"`, or `"ann@example.com" with course "c-1"`. */
	named(id: string): string;
	/** Ids equal under this are look-alikes: never written and removed in one run. */
	lookAlike(id: string): string;
	/** The current state; a contract without one decides from memory alone. */
	read?(): Promise<Reading<L>>;
	compare(values: V, listed: L | undefined, remembered: string | undefined, full: boolean): Change;
	returning(id: string, values: V, itemIndex: number): Change;
	fingerprint(values: V): string;
	echo(id: string, listed: L | undefined): IDataObject;
	write(
		itemIndex: number,
		values: V,
		place: PoolPlace,
		onAccepted: (transactionId: string) => void,
	): Promise<Sent>;
	remove(
		existing: Existing<L>,
		place: PoolPlace,
		onAccepted: (transactionId: string) => void,
	): Promise<Sent>;
	settle(transactionId: string): Promise<'success' | 'failed' | 'initiated'>;
	/** The write was accepted, then its transaction ended without success: nothing changed. */
	rejected(error: unknown): boolean;
	keepsRemoved: boolean;
	claimsUnconfirmed: boolean;
	refusal(message: string, itemIndex: number, description: string): Error;
}

export interface SyncSettings {
	skipUnchanged: boolean;
	removeMissing: boolean;
	maxRemoveShare: number;
	dryRun: boolean;
}

type Decision<V> =
	| { kind: 'new' | 'changed'; row: SyncRow<V>; id: string; values: V; changed: string[] }
	| { kind: 'same'; row: SyncRow<V>; id: string; listed?: unknown }
	| { kind: 'failed'; row: SyncRow<V>; error: unknown };

export interface SyncPlan<V, L> {
	rows: Array<Decision<V>>;
	remove: Array<Existing<L>>;
	removedBefore: number;
	size: number;
	notes: string[];
}

const isRemoval = (value: string | undefined) =>
	value === REMOVED || value?.startsWith(REMOVAL_PENDING) === true;

function listBy<T>(items: Iterable<T>, keyOf: (item: T) => string | undefined) {
	const map = new Map<string, T[]>();
	for (const item of items) {
		const key = keyOf(item);
		if (key === undefined) continue;
		const list = map.get(key);
		if (list) list.push(item);
		else map.set(key, [item]);
	}
	return map;
}

/** Failed, repeated and look-alike rows still count as present: what they name is never removed. */
export function planSync<V, L>(
	contract: SyncContract<V, L>,
	rows: ReadonlyArray<SyncRow<V>>,
	reading: Reading<L>,
	memory: ReadonlyMap<string, string>,
	settings: Omit<SyncSettings, 'dryRun'>,
): SyncPlan<V, L> {
	const { words, named } = contract;
	const notes = [...(reading.notes ?? [])];
	const existing = new Map<string, Existing<L>>();
	for (const entry of reading.existing) if (!existing.has(entry.id)) existing.set(entry.id, entry);
	const listedTwice = reading.existing.length - existing.size;
	if (listedTwice > 0) {
		notes.push(
			`${listedTwice} ${words.many} were listed more than once under one ID: each was decided once.`,
		);
	}
	const existingLooks = listBy(existing.keys(), (id) => contract.lookAlike(id));
	const rowsById = listBy(rows, (row) => row.id);
	const rowLooks = listBy(rowsById.keys(), (id) => contract.lookAlike(id));
	const present = new Set(rowsById.keys());
	const refuse = (row: SyncRow<V>, message: string, description: string): Decision<V> => ({
		kind: 'failed',
		row,
		error: contract.refusal(
			`${words.idName} ${named(row.id!)} ${message}`,
			row.itemIndex,
			description,
		),
	});

	const decisions = rows.map((row): Decision<V> => {
		const { id, values } = row;
		if (!values || id === undefined) return { kind: 'failed', row, error: row.error };
		const copies = rowsById.get(id)!;
		if (copies.length > 1) {
			return refuse(
				row,
				`is on items ${copies.map((r) => r.itemIndex).join(', ')}: none of them was written`,
				`Each ${words.one} must appear once in the input. Remove the extra rows and run again.`,
			);
		}
		const look = contract.lookAlike(id);
		const twins = rowLooks.get(look)!.filter((other) => other !== id);
		if (twins.length > 0) {
			return refuse(
				row,
				`looks like ${twins.map(named).join(', ')} in the input: none of them was written`,
				'They differ only in case, spaces at the ends or Unicode form, and the platform may take them for one. Keep one spelling.',
			);
		}
		const current = existing.get(id);
		const lookAlikes = (existingLooks.get(look) ?? []).filter((other) => other !== id);
		if (!current && lookAlikes.length > 0) {
			for (const other of lookAlikes) present.add(other);
			return refuse(
				row,
				`is not in the ${words.existing}, but ${lookAlikes.map(named).join(', ')} is: nothing was written or ${words.removed} for it`,
				`They differ only in case, spaces at the ends or Unicode form. Use the spelling ${words.spelledBy}, so that one is not written while the other is ${words.removed}.`,
			);
		}
		const remembered = memory.get(contract.key(id));
		const change = isRemoval(remembered)
			? contract.returning(id, values, row.itemIndex)
			: contract.compare(values, current?.listed, remembered, !settings.skipUnchanged);
		if (change.kind === 'refused') return { kind: 'failed', row, error: change.error };
		if (change.kind === 'same') return { kind: 'same', row, id, listed: current?.listed };
		// Remembered yet not listed: the listing is incomplete, and the entry exists.
		const kind = change.kind === 'new' && remembered !== undefined ? 'changed' : change.kind;
		return { kind, row, id, values, changed: change.changed };
	});

	let removedBefore = 0;
	for (const id of existing.keys()) if (memory.get(contract.key(id)) === REMOVED) removedBefore++;
	const plan: SyncPlan<V, L> = {
		rows: decisions,
		remove: [],
		removedBefore,
		size: existing.size - removedBefore,
		notes,
	};
	if (!settings.removeMissing) return plan;
	if (rows.some((row) => row.id === undefined)) {
		notes.push(
			`Nothing was ${words.removed}: an input item failed validation before its ID could be read, so any ${words.one} could be the one it names.`,
		);
	} else if (reading.incomplete) {
		notes.push(`Nothing was ${words.removed} and nothing forgotten: ${reading.incomplete}.`);
	} else {
		plan.remove = [...existing.values()].filter(
			(entry) => !present.has(entry.id) && !isRemoval(memory.get(contract.key(entry.id))),
		);
	}
	return plan;
}

/** Percent with enough decimals to show a refused share above its limit (7.01 %, not 7 %). */
function percentShown(count: number, size: number, limit: number): string {
	const share = (count / size) * 100;
	let shown = share >= 10 || Number.isInteger(share) ? String(Math.round(share)) : share.toFixed(1);
	for (let digits = 1; Number(shown) <= limit && share > limit && digits <= 6; digits++) {
		shown = share.toFixed(digits);
	}
	return shown;
}

/** Compared in whole numbers: 7 of 100 is exactly 7 %, whatever 7 / 100 × 100 gives. */
export function guardRemovals(
	plan: Pick<SyncPlan<unknown, unknown>, 'remove' | 'size'>,
	maxShare: number,
	words: Pick<SyncWords, 'remove' | 'many' | 'guardOption'>,
): { allowed: boolean; message: string } {
	const count = plan.remove.length;
	const size = Math.max(plan.size, count === 0 ? 1 : 0);
	const allowed = count === 0 || count * 100 * 1e6 <= Math.round(maxShare * 1e6) * plan.size;
	const shown = count === 0 ? '0' : plan.size === 0 ? '100' : percentShown(count, size, maxShare);
	return {
		allowed,
		message: `would ${words.remove} ${count} of ${plan.size} ${words.many} (${shown} %)${
			allowed ? '' : `, more than ${words.guardOption} (${maxShare} %)`
		}`,
	};
}

interface SyncControl {
	run: Run;
	concurrency: number;
	stopAfterFailure: boolean;
	/** An item that comes from no input row (a removal): paired with none. */
	output(json: IDataObject): void;
}

export interface SyncReport {
	sendMessageToUI?(message: string): void;
	addExecutionHints?(...hints: Array<{ message: string; location: 'outputPane' }>): void;
}

/** Memory changes only as writes are confirmed, and is saved even when the run stops midway. */
export async function runSyncReported<V, L>(
	fns: SyncReport,
	contract: SyncContract<V, L>,
	rows: ReadonlyArray<SyncRow<V>>,
	memory: Memory,
	settings: SyncSettings,
	control: SyncControl,
): Promise<Map<number, ItemOutcome>> {
	const { run } = control;
	const { words } = contract;
	const { entries } = memory;
	const notes: string[] = [];
	if (memory.dropped > 0) {
		notes.push(
			`${memory.dropped} remembered entries were malformed (edited by hand or by another version) and were dropped: what they stood for is decided anew.`,
		);
	}
	let result: Tally;
	try {
		const retried = await settleRemovals(contract, entries, run);
		if (retried > 0) {
			notes.push(
				`${retried} ${words.many} ${words.removed} on an earlier run did not succeed (or could not be checked): each is ${words.removed} again while it stays out of the input.`,
			);
		}
		const reading: Reading<L> = contract.read
			? await contract.read()
			: {
					existing: [...entries]
						.filter(([, value]) => !isRemoval(value))
						.map(([key]) => ({ id: contract.idOfKey!(key) })),
				};
		const plan = planSync(contract, rows, reading, entries, settings);
		notes.push(...plan.notes);
		const guard = guardRemovals(plan, settings.maxRemoveShare, words);
		if (!guard.allowed) {
			const description = `The input has ${rows.length} items; ${reading.existing.length} ${words.many} were found${
				plan.removedBefore > 0
					? `, ${plan.removedBefore} of them ${words.removed} by this node before (not counted)`
					: ''
			}. ${words.guardAdvice}`;
			if (!settings.dryRun) {
				throw contract.refusal(`Nothing was written: the sync ${guard.message}`, 0, description);
			}
			notes.push(`A real run would be refused: it ${guard.message}. ${description}`);
		}
		if (settings.dryRun) {
			result = dryRun(contract, plan, control.output);
			notes.push('Dry run: nothing was written and nothing remembered.');
		} else {
			result = await write(contract, plan, entries, control, progressReport(fns, words.title));
		}
		if (!settings.dryRun && !reading.incomplete && !run.cancelSignal?.aborted && contract.read) {
			const keep = new Set<string>();
			for (const entry of reading.existing) keep.add(contract.key(entry.id));
			for (const row of rows) if (row.id !== undefined) keep.add(contract.key(row.id));
			for (const key of [...entries.keys()]) if (!keep.has(key)) entries.delete(key);
		}
	} finally {
		if (!settings.dryRun) memory.save();
	}
	const counts = Object.entries(result.counts).map(([action, n]) => `${n} ${action}`);
	if (words.removeNote && result.counts[words.removed] > 0) notes.push(words.removeNote);
	fns.addExecutionHints?.(
		{
			message: `${words.title}${settings.dryRun ? ' (dry run)' : ''}: ${counts.join(', ')}`,
			location: 'outputPane',
		},
		...notes.map((message) => ({ message, location: 'outputPane' as const })),
	);
	return result.outcomes;
}

/** About every tenth of the writes, and the last. */
function progressReport(fns: SyncReport, title: string) {
	let reported = -1;
	return (done: number, total: number) => {
		const step = Math.max(1, Math.ceil(total / 10));
		if (done !== total && done - reported < step) return;
		reported = done;
		fns.sendMessageToUI?.(`${title}: ${done} of ${total} writes done`);
	};
}

type Tally = Omit<ReturnType<typeof tally>, 'writes'>;

type Write<V> = Extract<Decision<V>, { values: V }>;

/** Failed and unchanged rows are settled by the plan; the rest are to be written. */
function tally<V, L>(contract: SyncContract<V, L>, plan: SyncPlan<V, L>, dryRun: boolean) {
	const { words } = contract;
	const outcomes = new Map<number, ItemOutcome>();
	const counts = {
		[words.created]: 0,
		[words.updated]: 0,
		unchanged: 0,
		[words.removed]: 0,
		failed: 0,
	};
	const writes: Array<Write<V>> = [];
	for (const decision of plan.rows) {
		const { itemIndex } = decision.row;
		if (decision.kind === 'failed') {
			outcomes.set(itemIndex, { status: 'failed', error: decision.error as Error });
			counts.failed++;
		} else if (decision.kind === 'same') {
			const json = { action: 'unchanged', ...contract.echo(decision.id, decision.listed as L) };
			outcomes.set(itemIndex, { status: 'done', json: dryRun ? { ...json, dryRun } : json });
			counts.unchanged++;
		} else writes.push(decision);
	}
	return { outcomes, counts, writes };
}

function written<V>(
	words: SyncWords,
	counts: Record<string, number>,
	{ kind, changed }: Write<V>,
	output: IDataObject,
): IDataObject {
	const action = kind === 'new' ? words.created : words.updated;
	counts[action]++;
	if (kind === 'new') return { action, ...output };
	const note = words.updateNote ? { note: words.updateNote } : {};
	return { action, ...output, changedFields: changed, ...note };
}

function dryRun<V, L>(
	contract: SyncContract<V, L>,
	plan: SyncPlan<V, L>,
	output: (json: IDataObject) => void,
): Tally {
	const { words } = contract;
	const { outcomes, counts, writes } = tally(contract, plan, true);
	for (const decision of writes) {
		const json = written(words, counts, decision, contract.echo(decision.id, undefined));
		outcomes.set(decision.row.itemIndex, { status: 'done', json: { ...json, dryRun: true } });
	}
	counts[words.removed] = plan.remove.length;
	for (const entry of plan.remove) {
		output({ action: words.removed, ...contract.echo(entry.id, entry.listed), dryRun: true });
	}
	return { outcomes, counts };
}

async function write<V, L>(
	contract: SyncContract<V, L>,
	plan: SyncPlan<V, L>,
	entries: Map<string, string>,
	{ run, concurrency, stopAfterFailure, output }: SyncControl,
	progress: (done: number, total: number) => void,
): Promise<Tally> {
	const { words } = contract;
	const { outcomes, counts, writes } = tally(contract, plan, false);
	// Without Continue On Fail, a row that cannot be written stops the run before any write.
	if (stopAfterFailure && counts.failed > 0) {
		for (const { row } of writes) outcomes.set(row.itemIndex, { status: 'notSent' });
		return { outcomes, counts };
	}
	const tasks = [...writes, ...plan.remove];
	const total = tasks.length;
	let done = 0;
	let removalError: { error: unknown } | undefined;

	const send = async (decision: Write<V>, place: PoolPlace) => {
		const key = contract.key(decision.id);
		const before = entries.get(key);
		// Once accepted and until confirmed, the platform may hold either version.
		const unconfirmed = before ?? OURS_UNCONFIRMED;
		if (!contract.claimsUnconfirmed) entries.delete(key);
		let accepted = false;
		const { itemIndex } = decision.row;
		const sent = await contract
			.write(itemIndex, decision.values, place, () => {
				accepted = true;
				if (contract.claimsUnconfirmed) entries.set(key, unconfirmed);
			})
			.catch((error: unknown) => {
				// Not sent, or known to have failed: the platform holds what it held before.
				if (contract.claimsUnconfirmed && (!accepted || contract.rejected(error))) {
					if (before === undefined) entries.delete(key);
					else entries.set(key, before);
				}
				throw error;
			});
		if (sent.confirmed) entries.set(key, contract.fingerprint(decision.values));
		outcomes.set(itemIndex, {
			status: 'done',
			json: written(words, counts, decision, sent.output),
		});
	};
	const remove = async (entry: Existing<L>, place: PoolPlace) => {
		const key = contract.key(entry.id);
		const sent = await contract
			.remove(entry, place, (tx) => entries.set(key, REMOVAL_PENDING + tx))
			.catch((error: unknown) => {
				// One known to have failed is made again; one still pending is checked next run.
				if (contract.rejected(error)) removalFailed(contract, entries, key);
				throw error;
			});
		if (sent.confirmed && contract.keepsRemoved) entries.set(key, REMOVED);
		else if (sent.confirmed) entries.delete(key);
		counts[words.removed]++;
		output({ action: words.removed, ...sent.output });
	};

	progress(0, total);
	await mapWithConcurrency(
		tasks,
		concurrency,
		async (task, _index, place) => {
			const isWrite = 'row' in task;
			if (run.stopped || run.cancelSignal?.aborted) {
				if (isWrite) outcomes.set(task.row.itemIndex, { status: 'notSent' });
				return;
			}
			try {
				await (isWrite ? send(task, place) : remove(task, place));
			} catch (error) {
				counts.failed++;
				if (stopAfterFailure) run.stopped = true;
				if (isWrite) {
					outcomes.set(task.row.itemIndex, { status: 'failed', error: error as Error });
				} else {
					removalError ??= { error };
					output({
						action: 'failed',
						...contract.echo(task.id, task.listed),
						error: error instanceof Error ? error.message : String(error),
					});
				}
			} finally {
				progress(++done, total);
			}
		},
		run.cancelSignal,
	);
	// Without Continue On Fail a failed removal fails the run (row failures are the router's).
	if (stopAfterFailure && removalError) throw run.mask(removalError.error);
	return { outcomes, counts };
}

/** Listed entries are found again by the listing; an unlisted one must stay ours to be retried. */
function removalFailed<V, L>(
	contract: SyncContract<V, L>,
	entries: Map<string, string>,
	key: string,
): void {
	if (contract.read) entries.delete(key);
	else entries.set(key, OURS_UNCONFIRMED);
}

/** Earlier removals: done, still pending, or (failed or unreadable) to be made again. */
async function settleRemovals<V, L>(
	contract: SyncContract<V, L>,
	entries: Map<string, string>,
	run: Run,
): Promise<number> {
	let retried = 0;
	for (const [key, value] of [...entries]) {
		if (!value.startsWith(REMOVAL_PENDING)) continue;
		let state: 'success' | 'failed' | 'initiated' = 'failed';
		try {
			state = await contract.settle(value.slice(REMOVAL_PENDING.length));
		} catch {
			if (run.cancelSignal?.aborted) {
				throw contract.refusal('The execution was cancelled', 0, 'Nothing was written.');
			}
		}
		if (state === 'initiated') continue;
		if (state === 'success' && contract.keepsRemoved) entries.set(key, REMOVED);
		else if (state === 'success') entries.delete(key);
		else {
			removalFailed(contract, entries, key);
			retried++;
		}
	}
	return retried;
}
