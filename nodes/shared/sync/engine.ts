import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome } from '../items/operation';
import type { PoolPlace } from '../pacing/time';
import type { Run } from '../request/call';
import { mapWithConcurrency } from '../items/pool';
import type {
	DryRunFindings,
	Existing,
	Reading,
	SyncContract,
	SyncRow,
	SyncSettings,
	SyncWords,
} from './contract';
import type { Memory } from './memory';
import { OURS_UNCONFIRMED, REMOVAL_PENDING, REMOVED } from './memory';
import type { Decision, PlanShape, ShapeOption, SyncPlan } from './plan';
import { approvalMismatch, guardRemovals, isRemoval, planIdOf, planSync } from './plan';
import { SyncResults } from './report';

interface SyncControl {
	run: Run;
	concurrency: number;
	stopAfterFailure: boolean;
	/** An item that comes from no input row (a removal, a summary): paired with none. */
	output(json: IDataObject): void;
}

export interface SyncReport {
	sendMessageToUI?(message: string): void;
	addExecutionHints?(...hints: Array<{ message: string; location: 'outputPane' }>): void;
}

type Write<V> = Extract<Decision<V>, { values: V }>;

/** What this run writes, and what it leaves to the next runs (removals are taken first). */
interface Batch<V, L> {
	writes: Array<Write<V>>;
	removals: Array<Existing<L>>;
	deferredWrites: Array<Write<V>>;
	deferredRemovals: Array<Existing<L>>;
}

const defined = (values: IDataObject): IDataObject =>
	Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1);

/** The sync's options as the form names them: "Withdraw Missing", "Max Archive Share", … */
function optionNames(words: SyncWords) {
	const verb = capitalised(words.remove);
	const names: Record<ShapeOption, string> = {
		removeMissing: `${verb} Missing`,
		removeAfterDays: `${verb} After Days`,
		maxRemoveShare: words.guardOption,
		memoryKey: 'Memory Key',
	};
	return { ...names, shareField: `max${verb}Share` };
}

/** Two real syncs on one Memory Key would take each other's entries for their own. */
function sharedByAnother<V, L>(contract: SyncContract<V, L>, memory: Memory, key: string): Error {
	const { words } = contract;
	const other = memory.keptBy!.name;
	const self = memory.node?.name ?? 'this node';
	return contract.refusal(
		`Nothing was written: Memory Key "${key}" is the memory of the real sync "${other}", and this node, "${self}", is a real sync too`,
		0,
		`Two real syncs on one Memory Key would take each other's ${words.many} for their own and ${words.remove} them. Give "${self}" a Memory Key of its own (or none), or turn on its Dry Run to preview the plan of "${other}". If "${other}" was deleted and "${self}" replaces it, rename "${self}" to "${other}" once: it then keeps the memory (and may be renamed again).`,
	);
}

/**
 * Settle earlier removals, read the current state once, plan every row before anything is sent,
 * guard the removals, then a dry run or the writes (at most Max Writes per Run), each
 * remembered only once confirmed; the memory is saved even when the run stops midway.
 */
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
	const { dryRun } = settings;
	const notes: string[] = [];
	const { busySince } = memory;
	if (!dryRun && memory.keptBy) throw sharedByAnother(contract, memory, settings.memoryKey ?? '');
	if (busySince !== undefined && !dryRun) {
		notes.push(
			`Another run of this sync (same workflow, node or Memory Key, and client) has been running in this n8n since ${new Date(busySince).toISOString()}: this run wrote nothing and left the memory as it was, and its plan is deferred to the next run. A run should end before the next one starts: lower Max Writes per Run, or run less often.`,
		);
	}
	const keepsMemory = !dryRun && busySince === undefined;
	const claimed = keepsMemory ? memory.claim() : undefined;
	if (memory.dropped > 0) {
		notes.push(
			`${memory.dropped} remembered entries were malformed (edited by hand or by another version) and were dropped: what they stood for is decided anew.`,
		);
	}
	let results: SyncResults;
	try {
		const retried = keepsMemory ? await settleRemovals(contract, entries, run) : 0;
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
		if (keepsMemory) {
			for (const [key, value] of plan.clocks) {
				if (value === undefined) entries.delete(key);
				else entries.set(key, value);
			}
		}
		const names = optionNames(words);
		const shape: PlanShape = {
			removeMissing: settings.removeMissing,
			removeAfterDays: settings.removeAfterDays ?? 0,
			maxRemoveShare: settings.maxRemoveShare,
			memoryKey: settings.memoryKey ?? '',
			lastSpent: memory.spent[0]?.planId,
		};
		const planId = planIdOf(
			memory.scope,
			plan.remove.map((entry) => contract.key(entry.id)),
			shape,
		);
		const guard = guardRemovals(plan, settings.maxRemoveShare, words);
		const approved = !guard.allowed && settings.approvedPlan === planId;
		if (!guard.allowed && !approved) {
			const mismatch = settings.approvedPlan
				? approvalMismatch(
						settings.approvedPlan,
						{ planId, removals: plan.remove.length, shape },
						memory.spent,
						words,
						(option) => names[option],
					)
				: undefined;
			const description = `${mismatch ? `${mismatch.advice} ` : ''}The input has ${rows.length} items; ${reading.existing.length} ${words.many} were found${
				plan.removedBefore > 0
					? `, ${plan.removedBefore} of them ${words.removed} by this node before (not counted)`
					: ''
			}. ${words.guardAdvice} Or review them (a dry run lists them) and run again with Options → Approved Plan set to this run's plan ID, ${planId}: then exactly these ${words.many} are ${words.removed}, once.`;
			const refused = `${guard.message}${mismatch ? `; ${mismatch.message}` : ''}`;
			if (!dryRun) {
				const refusal = contract.refusal(
					`Nothing was written: the sync ${refused}`,
					0,
					description,
				);
				Object.assign(refusal, { context: { details: { planId } } });
				throw refusal;
			}
			notes.push(`A real run would be refused: it ${refused}. ${description}`);
		}
		if (approved) {
			notes.push(
				`${dryRun ? 'A real run would go ahead' : 'Went ahead'} past ${words.guardOption} with the approved plan ${planId}: it ${guard.message}. An approval goes ahead once: a later run needs a new review.`,
			);
		} else if (!settings.removeMissing) {
			notes.push(
				`${names.removeMissing} is off: nothing is ${words.removed}, and ${words.guardOption} (${settings.maxRemoveShare} %) has nothing to guard.`,
			);
		} else if (guard.allowed) notes.push(`The plan ${guard.message}.`);
		results = new SyncResults(
			words,
			settings.output ?? 'all',
			dryRun ? { dryRun: true, planId } : {},
			control.stopAfterFailure,
		);
		const writes = tally(contract, plan, results);
		const room = busySince !== undefined && !dryRun ? 0 : settings.maxWritesPerRun || Infinity;
		const batch = bound(writes, plan.remove, room);
		if (dryRun) {
			const planned = [...batch.writes, ...batch.deferredWrites];
			const found: DryRunFindings =
				contract.checkPlanned && planned.length > 0
					? await contract.checkPlanned(planned)
					: { warnings: new Map(), notes: [] };
			plannedItems(contract, batch, results, found.warnings);
			deferred(contract, batch, results, found.warnings);
			notes.push(...found.notes);
			notes.push(
				`Dry run: nothing was written and nothing remembered.${words.dryRunUnchecked ? ` ${words.dryRunUnchecked}` : ''}`,
			);
		} else if (control.stopAfterFailure && results.counts.failed > 0) {
			// Without Continue On Fail, a row that cannot be written stops the run before any write.
			for (const { row } of writes) results.notSent(row.itemIndex);
		} else {
			// An approval is spent once the platform accepted one of its removals.
			const spend = approved ? () => memory.spend(planId) : () => {};
			await write(contract, batch, entries, control, results, {
				progress: progressReport(fns, words.title),
				removalAccepted: spend,
			});
			deferred(contract, batch, results);
		}
		for (const { entry, removeAfter } of plan.missing) {
			const keys = defined(contract.echo(entry.id, entry.listed));
			const at = new Date(removeAfter).toISOString();
			results.unpairedItem({ action: 'missing', ...keys, removeAfter: at }, keys);
		}
		if (keepsMemory && !reading.incomplete && !run.cancelSignal?.aborted && contract.read) {
			const keep = new Set<string>();
			for (const entry of reading.existing) keep.add(contract.key(entry.id));
			for (const row of rows) if (row.id !== undefined) keep.add(contract.key(row.id));
			for (const key of [...entries.keys()]) if (!keep.has(key)) entries.delete(key);
		}
		results.finish(control.output, {
			dryRun,
			planId,
			needsApproval: !guard.allowed && !approved,
			guard: guard.message,
			[names.shareField]: settings.maxRemoveShare,
		});
	} finally {
		if (keepsMemory) memory.save();
		claimed?.release();
	}
	const { counts } = results;
	if (words.removeNote && counts[words.removed] > 0) notes.push(words.removeNote);
	if (counts.deferred > 0) {
		notes.push(
			`${counts.deferred} writes were deferred by Max Writes per Run: the next runs make them.`,
		);
	}
	fns.addExecutionHints?.(
		{
			message: `${words.title}${dryRun ? ' (dry run)' : ''}: ${results.tally()}`,
			location: 'outputPane',
		},
		...notes.map((message) => ({ message, location: 'outputPane' as const })),
	);
	return results.outcomes;
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

/** Failed and unchanged rows are settled by the plan; the rest are to be written. */
function tally<V, L>(
	contract: SyncContract<V, L>,
	plan: SyncPlan<V, L>,
	results: SyncResults,
): Array<Write<V>> {
	const writes: Array<Write<V>> = [];
	for (const decision of plan.rows) {
		const { itemIndex, id } = decision.row;
		if (decision.kind === 'failed') {
			const keys = id === undefined ? {} : defined(contract.echo(id, undefined));
			results.rowFailed(itemIndex, decision.error, keys);
		} else if (decision.kind === 'same') {
			const keys = contract.echo(decision.id, decision.listed as L);
			results.row(itemIndex, { action: 'unchanged', ...keys }, defined(keys));
		} else writes.push(decision);
	}
	return writes;
}

function bound<V, L>(
	writes: Array<Write<V>>,
	removals: Array<Existing<L>>,
	room: number,
): Batch<V, L> {
	const removing = removals.slice(0, room);
	const writing = writes.slice(0, room - removing.length);
	return {
		writes: writing,
		removals: removing,
		deferredWrites: writes.slice(writing.length),
		deferredRemovals: removals.slice(removing.length),
	};
}

const actionOf = (words: SyncWords, { kind }: Write<unknown>) =>
	kind === 'new' ? words.created : words.updated;

function written<V>(words: SyncWords, decision: Write<V>, output: IDataObject): IDataObject {
	const action = actionOf(words, decision);
	if (decision.kind === 'new') return { action, ...output };
	const note = words.updateNote ? { note: words.updateNote } : {};
	return { action, ...output, changedFields: decision.changed, ...note };
}

const warned = (warnings: ReadonlyMap<string, string>, id: string): IDataObject => {
	const warning = warnings.get(id);
	return warning === undefined ? {} : { warning };
};

/** A dry run reports each write and removal as a real run would make it. */
function plannedItems<V, L>(
	contract: SyncContract<V, L>,
	batch: Batch<V, L>,
	results: SyncResults,
	warnings: ReadonlyMap<string, string>,
): void {
	for (const decision of batch.writes) {
		const keys = contract.echo(decision.id, undefined);
		const json = { ...written(contract.words, decision, keys), ...warned(warnings, decision.id) };
		results.row(decision.row.itemIndex, json, defined(keys));
	}
	for (const entry of batch.removals) {
		const keys = defined(contract.echo(entry.id, entry.listed));
		results.unpairedItem({ action: contract.words.removed, ...keys }, keys);
	}
}

/** Left to the next runs: nothing is remembered for them. */
function deferred<V, L>(
	contract: SyncContract<V, L>,
	batch: Batch<V, L>,
	results: SyncResults,
	warnings: ReadonlyMap<string, string> = new Map(),
): void {
	const { words } = contract;
	for (const decision of batch.deferredWrites) {
		const keys = defined(contract.echo(decision.id, undefined));
		const planned = actionOf(words, decision);
		const json = { action: 'deferred', planned, ...keys, ...warned(warnings, decision.id) };
		results.row(decision.row.itemIndex, json, keys);
	}
	for (const entry of batch.deferredRemovals) {
		const keys = defined(contract.echo(entry.id, entry.listed));
		results.unpairedItem({ action: 'deferred', planned: words.removed, ...keys }, keys);
	}
}

async function write<V, L>(
	contract: SyncContract<V, L>,
	batch: Batch<V, L>,
	entries: Map<string, string>,
	{ run, concurrency, stopAfterFailure }: SyncControl,
	results: SyncResults,
	{
		progress,
		removalAccepted,
	}: { progress: (done: number, total: number) => void; removalAccepted: () => void },
): Promise<void> {
	const { words } = contract;
	const tasks = [...batch.writes, ...batch.removals];
	const total = tasks.length;
	let done = 0;
	let removalError: { error: unknown } | undefined;
	// Reported in the plan's order, whatever order they finish in.
	const removed = new Map<Existing<L>, () => void>();

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
		const keys = defined(contract.echo(decision.id, undefined));
		results.row(itemIndex, written(words, decision, sent.output), keys);
	};
	const remove = async (entry: Existing<L>, place: PoolPlace) => {
		const key = contract.key(entry.id);
		const keys = defined(contract.echo(entry.id, entry.listed));
		const sent = await contract
			.remove(entry, place, (tx) => {
				entries.set(key, REMOVAL_PENDING + tx);
				removalAccepted();
			})
			.catch((error: unknown) => {
				// One known to have failed is made again; one still pending is checked next run.
				if (contract.rejected(error)) removalFailed(contract, entries, key);
				removed.set(entry, () => results.removalFailed(error, keys));
				throw error;
			});
		if (sent.confirmed && contract.keepsRemoved) entries.set(key, REMOVED);
		else if (sent.confirmed) entries.delete(key);
		removed.set(entry, () => results.unpairedItem({ action: words.removed, ...sent.output }, keys));
	};

	progress(0, total);
	await mapWithConcurrency(
		tasks,
		concurrency,
		async (task, _index, place) => {
			const isWrite = 'row' in task;
			if (run.stopped || run.cancelSignal?.aborted) {
				if (isWrite) results.notSent(task.row.itemIndex);
				return;
			}
			try {
				await (isWrite ? send(task, place) : remove(task, place));
			} catch (error) {
				if (stopAfterFailure) run.stopped = true;
				if (isWrite) results.rowFailed(task.row.itemIndex, error);
				else removalError ??= { error };
			} finally {
				progress(++done, total);
			}
		},
		run.cancelSignal,
	);
	for (const entry of batch.removals) removed.get(entry)?.();
	// Without Continue On Fail a failed removal fails the run (row failures are the router's).
	if (stopAfterFailure && removalError) throw run.mask(removalError.error);
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
