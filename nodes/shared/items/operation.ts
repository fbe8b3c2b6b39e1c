import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { Deadline } from '../pacing/time';
import type { RequestingFunctions } from '../request/call';
import type { Redactor } from '../request/secrets';

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

/** Error masks are asked for each time (a token may be issued mid-run); output's are built once. */
export function openRun<F extends RequestingFunctions, P extends object>(
	fns: F,
	masks: { errorMasks: () => Redactor; outputMasks: Redactor },
	parts: P,
): Opened<F, P> {
	const cancelSignal =
		'getExecutionCancelSignal' in fns ? fns.getExecutionCancelSignal() : undefined;
	const run: Run & { fns: F } = {
		fns,
		cancelSignal,
		stopped: false,
		mask: (error) => masks.errorMasks().error(error),
		maskOutput: (value) => masks.outputMasks.output(value),
		deadline: (budgetMs, options) => new Deadline(budgetMs, cancelSignal, Date.now, options),
	};
	// Descriptors, not a spread: a part may be a getter, read when it is needed.
	return Object.defineProperties(run, Object.getOwnPropertyDescriptors(parts)) as Opened<F, P>;
}

type Opened<F, P> = Run & { fns: F } & P;

export interface PoolPlace {
	/** Frees the place while the item only waits (e.g. for a transaction to finish); idempotent. */
	release(): void;
}

/** `prepare` reads and checks one item, sending nothing; `execute` gets the run. */
interface Described<Input> {
	description: INodeProperties[];
	prepare(fns: IExecuteFunctions, itemIndex: number): Input;
}

export interface ItemOperation<R extends Run, Input = never> extends Described<Input> {
	kind?: 'item';
	execute(
		run: R,
		input: Input,
		itemIndex: number,
		place: PoolPlace,
	): Promise<IDataObject | IDataObject[]>;
}

export interface PreparedItem<Input> {
	itemIndex: number;
	input: Input;
}

export type ItemOutcome =
	| { status: 'done'; json: IDataObject | IDataObject[] }
	| { status: 'failed'; error: Error }
	| { status: 'notSent'; reason?: string };

export interface BatchOperation<R extends Run, Input = never> extends Described<Input> {
	kind: 'batch';
	execute(
		run: R,
		items: Array<PreparedItem<Input>>,
		control: { stopAfterFailure: boolean },
	): Promise<Map<number, ItemOutcome>>;
}

// Operations differ in their input types; the router only passes each its own prepared input.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Operation<R extends Run> = ItemOperation<R, any> | BatchOperation<R, any>;

export interface ListedOperation<R extends Run> {
	name: string;
	description: string;
	/** E.g. "Create or update a course": the option's action and the node's subtitle. */
	action: string;
	toolDescription: string;
	operation: Operation<R>;
}

export interface Resource<R extends Run> {
	resource: string;
	label: string;
	defaultOperation: string;
	operations: Record<string, ListedOperation<R>>;
}

export interface NodeRouting<R extends Run> {
	resources: ReadonlyArray<Resource<R>>;
	openRun(fns: IExecuteFunctions): Promise<R>;
	concurrency(run: R): number;
	itemsAre: string;
}

function collection(displayName: string, name: string, placeholder: string) {
	return (options: INodeProperties[], extra: Partial<INodeProperties> = {}): INodeProperties => ({
		displayName,
		name,
		type: 'collection',
		placeholder,
		default: {},
		...extra,
		options,
	});
}

export const optionsCollection = collection('Options', 'options', 'Add option');
export const additionalFields = collection('Additional Fields', 'additionalFields', 'Add field');
