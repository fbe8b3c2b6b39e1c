import { createHash } from 'crypto';

import type { Existing, Reading, SyncContract, SyncRow, SyncSettings, SyncWords } from './contract';
import { clockOf, REMOVAL_PENDING, REMOVED, withClock } from './memory';

/** A sync's plan: every row decided, removals due or waiting, the guard, the plan's id. */

export type Decision<V> =
	| { kind: 'new' | 'changed'; row: SyncRow<V>; id: string; values: V; changed: string[] }
	| { kind: 'same'; row: SyncRow<V>; id: string; listed?: unknown }
	| { kind: 'failed'; row: SyncRow<V>; error: unknown };

export interface SyncPlan<V, L> {
	rows: Array<Decision<V>>;
	/** Removals due in this run. */
	remove: Array<Existing<L>>;
	/** Missing from the input, not yet for Remove After Days: when each becomes due. */
	missing: Array<{ entry: Existing<L>; removeAfter: number }>;
	/** Memory values a real run sets: clocks started, or dropped for entries back in the input. */
	clocks: Map<string, string | undefined>;
	removedBefore: number;
	size: number;
	notes: string[];
}

export const isRemoval = (value: string | undefined) =>
	value === REMOVED || value?.startsWith(REMOVAL_PENDING) === true;

const DAY_MS = 86_400_000;

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
	now = Date.now(),
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
		const remembered = clockOf(memory.get(contract.key(id))).value;
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
	for (const id of existing.keys()) {
		if (clockOf(memory.get(contract.key(id))).value === REMOVED) removedBefore++;
	}
	const plan: SyncPlan<V, L> = {
		rows: decisions,
		remove: [],
		missing: [],
		clocks: new Map(),
		removedBefore,
		size: existing.size - removedBefore,
		notes,
	};
	// Back in the input: its clock is forgotten.
	for (const id of present) {
		const key = contract.key(id);
		const { value, since } = clockOf(memory.get(key));
		if (since !== undefined) plan.clocks.set(key, value);
	}
	if (!settings.removeMissing) return plan;
	if (rows.some((row) => row.id === undefined)) {
		notes.push(
			`Nothing was ${words.removed}: an input item failed validation before its ID could be read, so any ${words.one} could be the one it names.`,
		);
		return plan;
	}
	if (reading.incomplete) {
		notes.push(`Nothing was ${words.removed} and nothing forgotten: ${reading.incomplete}.`);
		return plan;
	}
	const graceMs = (settings.removeAfterDays ?? 0) * DAY_MS;
	for (const entry of existing.values()) {
		if (present.has(entry.id)) continue;
		const key = contract.key(entry.id);
		const { value, since } = clockOf(memory.get(key));
		if (isRemoval(value)) continue;
		// Counted from the first run that missed it, as long as the memory of that run was saved.
		const started = since ?? now;
		if (now - started >= graceMs) plan.remove.push(entry);
		else {
			plan.missing.push({ entry, removeAfter: started + graceMs });
			if (since === undefined) plan.clocks.set(key, withClock(value, now));
		}
	}
	return plan;
}

/** The same removals on the same client give the same id, whatever their order. */
export function planIdOf(scope: string, keys: string[]): string {
	const hash = createHash('sha256').update(scope);
	for (const key of [...keys].sort()) hash.update('\u0000').update(key);
	return hash.digest('base64url').slice(0, 16);
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
