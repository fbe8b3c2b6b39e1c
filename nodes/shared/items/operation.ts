import type { IDataObject } from 'n8n-workflow';

import type { Deadline } from '../pacing/time';
import type { RequestingFunctions } from '../request/call';

/** What one execution shares, made by the router before the first item; nodes add their parts. */
export interface Run {
	readonly fns: RequestingFunctions;
	readonly cancelSignal?: AbortSignal;
	/** Set once an item failed and the run will stop: nothing more may be sent. */
	stopped: boolean;
	mask<E>(error: E): E;
	/** An API that echoes what it was sent must not put a credential in the output. */
	maskOutput<T>(value: T): T;
	/** Ends early on cancel; with `startsAtFirstSlot`, counted from the first throttle slot. */
	deadline(budgetMs: number, options?: { startsAtFirstSlot?: boolean }): Deadline;
}

export interface PoolPlace {
	/** Frees the place while the item only waits (e.g. for a transaction to finish); idempotent. */
	release(): void;
}

export interface PreparedItem<Input> {
	itemIndex: number;
	input: Input;
}

export type ItemOutcome =
	| { status: 'done'; json: IDataObject | IDataObject[] }
	| { status: 'failed'; error: Error }
	| { status: 'notSent'; reason?: string };
