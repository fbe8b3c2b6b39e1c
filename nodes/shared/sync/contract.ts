import type { IDataObject } from 'n8n-workflow';

import type { PoolPlace } from '../pacing/time';

/** What a sync's node gives the engine: its rows, its words, and how to read, compare and write. */

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
	/** What a dry run of this sync does not find out, said with every dry run. */
	dryRunUnchecked?: string;
}

/** What a dry run found out about its planned writes without writing: warnings by id, notes. */
export interface DryRunFindings {
	warnings: Map<string, string>;
	notes: string[];
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
	/** A dry run's read-only look at what its planned writes need (never fails the dry run). */
	checkPlanned?(writes: Array<{ id: string; values: V }>): Promise<DryRunFindings>;
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

export type SyncOutput = 'all' | 'changes' | 'summary';

export interface SyncSettings {
	skipUnchanged: boolean;
	removeMissing: boolean;
	maxRemoveShare: number;
	dryRun: boolean;
	/** At most this many writes; the rest of the plan is deferred to the next runs. 0: no bound. */
	maxWritesPerRun?: number;
	/** How long an entry is missing from every run's input before it is removed (0: at once). */
	removeAfterDays?: number;
	/** The plan id a run past the share guard must have to go ahead. */
	approvedPlan?: string;
	/** The Memory Key the memory was opened with ('' for the node's own): part of a plan's shape. */
	memoryKey?: string;
	output?: SyncOutput;
}
