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

/**
 * What shaped a plan besides its removals: the options that decide which removals are due and
 * whether they need an approval (a dry-run node's plan matches its real node's only when these
 * match), and the approval last carried out on the memory (after it, the same removals are a new
 * plan, to be reviewed again).
 */
export interface PlanShape {
	removeMissing: boolean;
	removeAfterDays: number;
	maxRemoveShare: number;
	memoryKey: string;
	lastSpent?: string;
}

export type ShapeOption = 'removeMissing' | 'removeAfterDays' | 'maxRemoveShare' | 'memoryKey';

/** How many bits of a plan ID tell each option apart (Withdraw Missing exactly, the rest by a hash). */
const SHAPE_BITS: Array<[ShapeOption, number]> = [
	['removeMissing', 1],
	['removeAfterDays', 5],
	['maxRemoveShare', 6],
	['memoryKey', 6],
];
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const COUNT_SYMBOLS = 3;
const MAX_COUNT = 64 ** COUNT_SYMBOLS - 1;

const hashOf = (...parts: string[]) => {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part).update('\u0000');
	return hash.digest();
};
const symbols = (value: number, count: number) => {
	let text = '';
	for (let i = count - 1; i >= 0; i--) text += ALPHABET[Math.floor(value / 64 ** i) % 64];
	return text;
};

function shapeBits(shape: PlanShape): number {
	let bits = 0;
	for (const [option, width] of SHAPE_BITS) {
		const value = shape[option];
		const part =
			option === 'removeMissing' ? Number(value) : hashOf(option, String(value)).readUInt8(0);
		bits = bits * 2 ** width + (part % 2 ** width);
	}
	return bits;
}

/**
 * 16 characters: 9 of a hash of the client (and Memory Key), the plan's shape and its removals
 * (the same removals give the same ID, whatever their order), then what a refusal needs to say
 * how another plan differs: the number of removals (3) and the shape's options (3), and one
 * check character, so that a plan ID of another kind is not read as one.
 */
export function planIdOf(scope: string, keys: string[], shape: PlanShape): string {
	const hash = createHash('sha256').update(scope).update('\u0000');
	hash.update(
		JSON.stringify([shape.lastSpent ?? '', ...SHAPE_BITS.map(([option]) => shape[option])]),
	);
	for (const key of [...keys].sort()) hash.update('\u0000').update(key);
	const head = hash.digest('base64url').slice(0, 9);
	const body =
		head + symbols(Math.min(keys.length, MAX_COUNT), COUNT_SYMBOLS) + symbols(shapeBits(shape), 3);
	return body + ALPHABET[hashOf(body).readUInt8(0) % 64];
}

/** What a plan ID says of its plan: how many removals, and its options (as bits); or nothing. */
function readPlanId(planId: string): { count: number; shape: number } | undefined {
	if (!/^[\w-]{16}$/.test(planId)) return undefined;
	const body = planId.slice(0, 15);
	if (planId[15] !== ALPHABET[hashOf(body).readUInt8(0) % 64]) return undefined;
	const value = (text: string) => [...text].reduce((n, c) => n * 64 + ALPHABET.indexOf(c), 0);
	return { count: value(body.slice(9, 12)), shape: value(body.slice(12, 15)) };
}

/** The options two plan shapes (as bits) differ in. */
function shapeDifferences(a: number, b: number): ShapeOption[] {
	const differ: ShapeOption[] = [];
	let shift = 1;
	for (const [option, width] of [...SHAPE_BITS].reverse()) {
		const mask = 2 ** width;
		if (Math.floor(a / shift) % mask !== Math.floor(b / shift) % mask) differ.unshift(option);
		shift *= mask;
	}
	return differ;
}

export interface Mismatch {
	/** One clause for the refusal's message. */
	message: string;
	/** What to do, for its description. */
	advice: string;
}

/**
 * Why an approved plan is not this run's: carried out already, made with other options, more or
 * fewer removals, or not a plan ID at all.
 */
export function approvalMismatch(
	approvedPlan: string,
	plan: { planId: string; removals: number; shape: PlanShape },
	spent: ReadonlyArray<{ planId: string; at: number }>,
	words: Pick<SyncWords, 'remove' | 'one' | 'many'>,
	optionName: (option: ShapeOption) => string,
): Mismatch {
	const given = `Approved Plan ${approvedPlan}`;
	const review = `Review this run's plan (a dry run lists it) and approve its plan ID, ${plan.planId}.`;
	const used = spent.find((p) => p.planId === approvedPlan);
	if (used) {
		return {
			message: `${given} was already carried out, by a run on ${new Date(used.at).toISOString()}`,
			advice: `An approval goes ahead once: a later run, even with the same ${words.many}, needs a new review. ${review}`,
		};
	}
	const read = readPlanId(approvedPlan);
	if (!read) {
		const shown = approvedPlan.length > 40 ? `${approvedPlan.slice(0, 40)}…` : approvedPlan;
		return {
			message: `Approved Plan "${shown}" is not a plan ID`,
			advice: `A plan ID is the 16 characters of a dry run's planId (or of a refusal like this one). ${review}`,
		};
	}
	const count = Math.min(plan.removals, MAX_COUNT);
	const many = (n: number) => `${n} ${n === 1 ? words.one : words.many}`;
	const differ = shapeDifferences(read.shape, shapeBits(plan.shape));
	const more = count - read.count;
	const by =
		more === 0
			? `the same number (${count}) as the approved plan${differ.length === 0 ? ', but not the same ones' : ''}`
			: `${many(Math.abs(more))} ${more > 0 ? 'more' : 'fewer'} than the approved plan (${count}, not ${read.count})`;
	const options = differ.map(optionName);
	const listed =
		options.length === 0
			? ''
			: `, and it was planned with other options than this node's: ${options.join(', ')}`;
	const since =
		more === 0 && differ.length === 0 && spent.length > 0
			? ' (or an approval was carried out since it was made)'
			: '';
	const same = SHAPE_BITS.map(([option]) => optionName(option));
	return {
		message: `${given} does not match this run's plan: this run would ${words.remove} ${by}${since}${listed}`,
		advice: `${
			options.length > 0
				? `A dry-run node's plan matches the real node's only when both nodes have the same options: ${same.slice(0, -1).join(', ')} and ${same[same.length - 1]}. `
				: ''
		}${review}`,
	};
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
		message: `would ${words.remove} ${count} of ${plan.size} ${words.many} (${shown} %), ${
			allowed ? 'within' : 'more than'
		} ${words.guardOption} (${maxShare} %)`,
	};
}
