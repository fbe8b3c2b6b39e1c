import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../form/input';

/** Static data per node and client; members grouped so rosters stay small; bad shapes dropped. */
export const REMOVED = '!';
export const REMOVAL_PENDING = '?';
export const OURS_UNCONFIRMED = '*';

const MEMBERS = '#';
/** The memory's own record: the real sync node that keeps a shared memory, and spent approvals. */
const RECORD = '@';
const SEPARATOR = '\u0000';
const VALUE = /^[\w!?*\-.:~]{1,80}$/;
const GROUPED_PART = /^(\d+) (\S+)$/;

export interface Memory {
	/** Which memory this is: one workflow's node (or memory key), one slot, one client. */
	id: string;
	/** Since when a real run of this memory has been writing it in this process, if one is. */
	busySince?: number;
	/** The client the memory is kept for (a removal plan's id names it). */
	scope: string;
	entries: Map<string, string>;
	/** Grouped memory compares group names in lower case and keeps the spelling last written. */
	spelling: Map<string, string>;
	dropped: number;
	/** The node that opened the memory. */
	node?: SyncNode;
	/** A shared memory (Memory Key): the real sync node that keeps it, if that is another node. */
	keptBy?: SyncNode;
	/** Approved plans a real run of this memory carried out, the latest first. */
	spent: SpentPlan[];
	/** Marks an approved plan carried out (kept with the memory's next save). */
	spend(planId: string): void;
	/** For a real run: no other run of this memory may write it until `release`. */
	claim(): { release(): void };
	save(): void;
}

/** A sync node as n8n knows it: its id stays when it is renamed, its name when it is replaced. */
export interface SyncNode {
	id?: string;
	name: string;
}

export interface SpentPlan {
	planId: string;
	at: number;
}

/** Spent approvals kept per memory: enough to tell a builder an approval left set was used. */
const SPENT_KEPT = 10;
const PLAN_ID = /^[\w-]{16}$/;

/** One node, whether renamed (same id) or replaced by one of the same name (names are unique). */
export const sameNode = (a: SyncNode, b: SyncNode) =>
	a.name === b.name || (a.id !== undefined && a.id !== '' && a.id === b.id);

/**
 * The memories real runs are writing in this process. Two overlapping runs would both plan from
 * the memory before the other's writes, and the one to end last would save over the other's: a
 * later run reads the running run's memory as it stands, and neither changes nor saves it.
 */
const inUse = new Map<string, { memory: Memory; since: number }>();

/**
 * What the last real run of each memory in this process saved, and the memories it and the runs
 * before it started from. n8n gives each execution a copy of the static data taken at its start
 * and saves it at its end: a run that started before the previous run's execution ended would plan
 * from that run's starting memory and repeat its writes. Such a copy is read as the last save.
 */
const lastSaved = new Map<string, { saved: IDataObject; earlier: string[] }>();
const EARLIER_KEPT = 4;

export type MemoryStore = Pick<IExecuteFunctions, 'getWorkflowStaticData'>;

export interface MemoryPlace {
	/** The workflow and node (or memory key) the memory belongs to. */
	owner: string;
	slot: string;
	scope: string;
	grouped: boolean;
	/** Sync nodes of a workflow that give the same key share one memory; else it is the node's. */
	sharedKey?: string;
	/** The node that opens the memory: a real run of it keeps a shared memory as its own. */
	node?: SyncNode;
	/** Now, to tell a grace clock that cannot be a time (the run's clock; tests pass their own). */
	now?: number;
}

/**
 * Flat: `key → value`. Grouped: `group → "member value|member value"` with the members listed
 * once under `#`. Anything of the other layout, or of no layout, is dropped, never read as data.
 */
export function openMemory(store: MemoryStore, place: MemoryPlace): Memory {
	const { slot, grouped, sharedKey, node } = place;
	const scope = sharedKey ? `${place.scope}|${sharedKey}` : place.scope;
	const id = `${place.owner}|${slot}|${scope}`;
	const keptBy = (memory: Pick<Memory, 'keptBy'> & { keeper?: SyncNode }) =>
		sharedKey && node && memory.keeper && !sameNode(memory.keeper, node)
			? memory.keeper
			: undefined;
	const running = inUse.get(id);
	// Not even read from static data: n8n would save whatever the read created, over the run's save.
	if (running) {
		const { memory } = running;
		return { ...memory, node, busySince: running.since, dropped: 0, keptBy: keptBy(memory) };
	}
	const data = store.getWorkflowStaticData(sharedKey ? 'global' : 'node');
	let dropped = 0;
	if (data[slot] !== undefined && !isPlainObject(data[slot])) dropped++;
	const scopes = (isPlainObject(data[slot]) ? data[slot] : {}) as IDataObject;
	const last = lastSaved.get(id);
	const stored = last?.earlier.includes(fingerprint(scopes[scope])) ? last.saved : scopes[scope];
	if (stored !== undefined && !isPlainObject(stored)) dropped++;
	const { [MEMBERS]: table, [RECORD]: record, ...rest } = isPlainObject(stored) ? stored : {};
	const members = grouped && typeof table === 'string' ? table.split('\n') : [];
	if (table !== undefined && !grouped) dropped++;
	const { keeper, spent, damaged } = readRecord(record);
	dropped += damaged;
	const entries = new Map<string, string>();
	const spelling = new Map<string, string>();
	const now = place.now ?? Date.now();
	const keep = (key: string, value: string) => {
		if (plausibleClock(value, now)) {
			entries.set(key, value);
			return;
		}
		// A clock that cannot be a time is damage: dropped, so its grace starts again from now.
		dropped++;
		const kept = clockOf(value).value;
		if (kept !== undefined) entries.set(key, kept);
		else if (grouped) entries.set(key, OURS_UNCONFIRMED);
	};
	for (const [key, value] of Object.entries(rest)) {
		if (!grouped) {
			if (typeof value === 'string' && VALUE.test(value)) keep(key, value);
			else dropped++;
			continue;
		}
		const group = key.toLowerCase();
		if (group !== key) spelling.set(group, key);
		for (const part of typeof value === 'string' ? value.split('|') : ['']) {
			const [, index, remembered] = GROUPED_PART.exec(part) ?? [];
			const member = members[Number(index)];
			if (member && VALUE.test(remembered ?? '')) keep(group + SEPARATOR + member, remembered);
			else dropped++;
		}
	}
	const memory: Memory & { keeper?: SyncNode } = {
		id,
		scope,
		entries,
		spelling,
		dropped,
		node,
		keeper,
		spent,
		spend(planId) {
			if (memory.spent.some((plan) => plan.planId === planId)) return;
			memory.spent = [{ planId, at: Date.now() }, ...memory.spent].slice(0, SPENT_KEPT);
		},
		claim() {
			// A real run keeps a shared memory for its node from now on: a run of another node that
			// starts meanwhile is refused as it would be after this run's save.
			if (sharedKey && node) memory.keeper = node;
			inUse.set(id, { memory, since: Date.now() });
			return { release: () => inUse.delete(id) };
		},
		save() {
			const saved = grouped ? encodeGroups(entries, spelling) : Object.fromEntries(entries);
			const own = writeRecord(memory.keeper, memory.spent);
			if (own) saved[RECORD] = own;
			scopes[scope] = saved;
			const savedHash = fingerprint(saved);
			const earlier = [fingerprint(stored), ...(lastSaved.get(id)?.earlier ?? [])];
			lastSaved.set(id, {
				saved,
				earlier: earlier.filter((hash) => hash !== savedHash).slice(0, EARLIER_KEPT),
			});
			// Set through n8n's proxy again, so the data is marked changed at the end: in n8n 2.40.7 a
			// run overlapped by a newer run of its workflow lost the mark, and its memory was not saved.
			data[slot] = scopes;
		},
	};
	memory.keptBy = keptBy(memory);
	return memory;
}

/** `{ node: { id, name }, spent: ["<planId>~<clock>", …] }`; a part of another shape is dropped. */
function readRecord(record: unknown): { keeper?: SyncNode; spent: SpentPlan[]; damaged: number } {
	if (record === undefined) return { spent: [], damaged: 0 };
	if (!isPlainObject(record)) return { spent: [], damaged: 1 };
	let damaged = 0;
	let keeper: SyncNode | undefined;
	const { node, spent } = record;
	if (node !== undefined) {
		const { id, name } = isPlainObject(node) ? node : {};
		if (typeof name === 'string' && (id === undefined || typeof id === 'string'))
			keeper = { id, name };
		else damaged++;
	}
	const plans: SpentPlan[] = [];
	for (const entry of Array.isArray(spent) ? spent : spent === undefined ? [] : [spent]) {
		const { value, since } = typeof entry === 'string' ? clockOf(entry) : {};
		if (value !== undefined && PLAN_ID.test(value) && since !== undefined)
			plans.push({ planId: value, at: since });
		else damaged++;
	}
	return { keeper, spent: plans.slice(0, SPENT_KEPT), damaged };
}

function writeRecord(keeper: SyncNode | undefined, spent: SpentPlan[]): IDataObject | undefined {
	if (!keeper && spent.length === 0) return undefined;
	const record: IDataObject = {};
	if (keeper)
		record.node = keeper.id ? { id: keeper.id, name: keeper.name } : { name: keeper.name };
	if (spent.length > 0) record.spent = spent.map((plan) => withClock(plan.planId, plan.at));
	return record;
}

function encodeGroups(entries: Map<string, string>, spelling: Map<string, string>): IDataObject {
	const groups = new Map<string, string[]>();
	const numbers = new Map<string, number>();
	for (const [key, value] of entries) {
		const [group, member] = splitKey(key);
		let number = numbers.get(member);
		if (number === undefined) numbers.set(member, (number = numbers.size));
		const list = groups.get(group) ?? [];
		list.push(`${number} ${value}`);
		groups.set(group, list);
	}
	const flat: IDataObject = {};
	for (const [group, list] of groups) flat[spelling.get(group) ?? group] = list.join('|');
	if (numbers.size > 0) flat[MEMBERS] = [...numbers.keys()].join('\n');
	return flat;
}

function fingerprint(stored: unknown): string {
	return createHash('sha256')
		.update(JSON.stringify(stored) ?? '')
		.digest('base64url');
}

export function memberKey(group: string, member: string): string {
	return group + SEPARATOR + member;
}

export function splitKey(key: string): [string, string] {
	const cut = key.indexOf(SEPARATOR);
	return [key.slice(0, cut), key.slice(cut + 1)];
}

const CLOCK = '~';
const CLOCK_DIGITS = /^[0-9a-z]{1,9}$/;

/**
 * The earliest a grace clock can be: no sync of this package remembered one before 2025. A clock
 * before it, or after now (beyond five minutes, the most another worker's clock may run ahead),
 * cannot be when its entry went missing.
 */
const EARLIEST_CLOCK = Date.UTC(2025, 0, 1);
const CLOCK_AHEAD_MS = 5 * 60_000;

/** A remembered value, and since when its entry has been missing from the input (ms). */
export function clockOf(remembered: string | undefined): { value?: string; since?: number } {
	const cut = remembered?.lastIndexOf(CLOCK) ?? -1;
	if (cut < 0) return { value: remembered };
	const digits = remembered!.slice(cut + 1);
	const since = CLOCK_DIGITS.test(digits) ? parseInt(digits, 36) * 1000 : NaN;
	return {
		value: remembered!.slice(0, cut) || undefined,
		since: Number.isFinite(since) ? since : undefined,
	};
}

/** Whether a value's clock is a time its entry can have gone missing at (no clock: it is). */
function plausibleClock(remembered: string, now: number): boolean {
	if (!remembered.includes(CLOCK)) return true;
	const { since } = clockOf(remembered);
	return since !== undefined && since >= EARLIEST_CLOCK && since <= now + CLOCK_AHEAD_MS;
}

/** The value with its clock: whole seconds in base 36, 7 bytes. */
export function withClock(value: string | undefined, since: number): string {
	return `${value ?? ''}${CLOCK}${Math.floor(since / 1000).toString(36)}`;
}
