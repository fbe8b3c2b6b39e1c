import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	appendDescription,
	assertAllValid,
	CONTINUE_ON_FAIL_HINT,
	withProgress,
} from './itemFailures';
import { errorItem, pairedItems } from './results';
import type { RequestingFunctions } from '../request/call';
import { itemParameters } from './parameters';
import type { PoolSlot } from './pool';
import { mapWithConcurrency } from './pool';

/**
 * What every execution of a node shares, created by the router before the first item and
 * passed to operations and transport explicitly: n8n's functions, the cancel signal, whether
 * the run has stopped at a failed item, and how errors are masked. Each node adds its own
 * parts (credentials, throttle, catalog index, …).
 */
export interface Run {
	/** n8n's functions: an execution's, or the editor's when it searches a list. */
	readonly fns: RequestingFunctions;
	readonly cancelSignal?: AbortSignal;
	/** Set once an item failed and the run will stop: nothing more may be sent. */
	stopped: boolean;
	/** Masks an error in place with every secret known for the run's credential now. */
	mask<E>(error: E): E;
	/**
	 * An output item with every secret and token known for the run's credential masked: an API
	 * that echoes what it was sent must not put a credential in the output.
	 */
	maskOutput<T>(value: T): T;
	/**
	 * Set by the router for item operations: the item only waits from now on (e.g. for its
	 * transaction), so its place in the pool goes to the next item, which can start sending.
	 */
	releaseSlot?(itemIndex: number): void;
}

interface Described<Input> {
	description: INodeProperties[];
	/** Reads and validates one item's parameters without sending anything. */
	prepare(this: IExecuteFunctions, itemIndex: number): Input;
}

/** An operation that works item by item. */
export interface ItemOperation<R extends Run, Input = never> extends Described<Input> {
	kind?: 'item';
	execute(run: R, input: Input, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

export interface PreparedItem<Input> {
	itemIndex: number;
	input: Input;
}

/** What a batch operation reports for one item. */
export type ItemOutcome =
	| { status: 'done'; json: IDataObject | IDataObject[] }
	| { status: 'failed'; error: Error }
	| { status: 'notSent'; reason?: string };

/** An operation that sends all valid items together (in batches of its own making). */
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

/** The parts of routing that differ between nodes. */
export interface NodeRouting<R extends Run> {
	operations: Record<string, Record<string, Operation<R>>>;
	/** Creates the run: reads the credential once, sets up what the transport needs. */
	openRun(fns: IExecuteFunctions): Promise<R>;
	/** Items in flight at once for item operations. */
	concurrency(run: R): number;
	/** What the items are called in a summary ("statements"). */
	itemsAre: string;
}

type Prepared = { input: unknown } | { error: unknown };

function prepareItem(
	fns: IExecuteFunctions,
	operation: Operation<Run>,
	itemIndex: number,
): Prepared {
	try {
		return { input: operation.prepare.call(fns, itemIndex) };
	} catch (error) {
		return { error };
	}
}

/**
 * The only place that loops over items, for both nodes. Without Continue On Fail every item is
 * validated before the first request, so one bad item cannot leave half a run sent; with it,
 * an item operation validates each item just before sending it (an invalid one becomes an error
 * item either way). Item operations run concurrently up to the node's concurrency; batch
 * operations get every valid item at once. Output keeps the input order, every output item is
 * paired with its input, a cancelled execution starts nothing more, and every error is masked.
 */
export async function route<R extends Run>(
	fns: IExecuteFunctions,
	routing: NodeRouting<R>,
): Promise<INodeExecutionData[][]> {
	const items = fns.getInputData();
	const operation = resolveOperation(fns, routing.operations);
	const continueOnFail = fns.continueOnFail();
	const upFront = !continueOnFail || operation.kind === 'batch';
	// Items read their parameters through this: fixed values once, plain field mappings directly.
	const reader = itemParameters(fns);
	const prepared = upFront
		? items.map((_, itemIndex) => prepareItem(reader, operation, itemIndex))
		: undefined;
	if (prepared && !continueOnFail) assertAllValid(prepared);

	const run = await routing.openRun(fns);
	const failed = (error: unknown, itemIndex: number) => [
		errorItem(run.mask(error), itemIndex, fns.getNode()),
	];
	if (operation.kind === 'batch') {
		return [await runBatch(run, operation, prepared!, continueOnFail, routing.itemsAre, failed)];
	}
	let completed = 0;
	const slots = new Map<number, PoolSlot>();
	run.releaseSlot = (itemIndex) => slots.get(itemIndex)?.release();
	const results = await mapWithConcurrency(
		items,
		routing.concurrency(run),
		async (_, itemIndex, slot) => {
			const entry = prepared?.[itemIndex] ?? prepareItem(reader, operation, itemIndex);
			if ('error' in entry) return failed(entry.error, itemIndex);
			slots.set(itemIndex, slot);
			try {
				const data = await operation.execute(run, entry.input as never, itemIndex);
				completed++;
				return pairedItems(run.maskOutput(data), itemIndex);
			} catch (error) {
				if (continueOnFail) return failed(error, itemIndex);
				run.stopped = true;
				throw withProgress(run.mask(error), completed, items.length);
			} finally {
				slots.delete(itemIndex);
			}
		},
		run.cancelSignal,
	);
	// A cancelled run starts no further item; those never started have no output.
	return [results.flatMap((result) => result ?? [])];
}

/**
 * A batch operation's outcomes as output. Without Continue On Fail every deliverable item is
 * still delivered, and then the node fails naming the items that were not.
 */
async function runBatch<R extends Run>(
	run: R,
	operation: BatchOperation<R, unknown>,
	prepared: Prepared[],
	continueOnFail: boolean,
	itemsAre: string,
	failed: (error: unknown, itemIndex: number) => INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const valid: Array<PreparedItem<unknown>> = [];
	prepared.forEach((entry, itemIndex) => {
		if ('input' in entry) valid.push({ itemIndex, input: entry.input });
	});
	const outcomes =
		valid.length > 0
			? await operation.execute(run, valid, { stopAfterFailure: !continueOnFail })
			: new Map<number, ItemOutcome>();
	if (!continueOnFail) assertAllDone(run, valid, outcomes, prepared.length, itemsAre);
	return prepared.flatMap((entry, itemIndex) => {
		if ('error' in entry) return failed(entry.error, itemIndex);
		const outcome = outcomes.get(itemIndex);
		if (outcome?.status === 'done') return pairedItems(run.maskOutput(outcome.json), itemIndex);
		if (outcome?.status === 'failed') return failed(outcome.error, itemIndex);
		const reason = outcome?.status === 'notSent' ? outcome.reason : undefined;
		return failed(
			new Error(reason ? `Not sent: an earlier batch failed (${reason})` : 'Not sent'),
			itemIndex,
		);
	});
}

function assertAllDone(
	run: Run,
	sent: Array<PreparedItem<unknown>>,
	outcomes: Map<number, ItemOutcome>,
	total: number,
	itemsAre: string,
): void {
	const failures: Array<{ itemIndex: number; error: Error }> = [];
	const notSent: number[] = [];
	let done = 0;
	for (const { itemIndex } of sent) {
		const outcome = outcomes.get(itemIndex);
		if (outcome?.status === 'done') done++;
		else if (outcome?.status === 'failed') failures.push({ itemIndex, error: outcome.error });
		else notSent.push(itemIndex);
	}
	if (failures.length === 0 && notSent.length === 0) return;
	const first =
		failures[0]?.error ??
		new NodeOperationError(run.fns.getNode(), `Some ${itemsAre} were not sent`, {
			itemIndex: notSent[0],
		});
	const lines = [`${done} of ${total} ${itemsAre} were stored.`];
	if (failures.length > 1) {
		const others = failures
			.slice(1, 20)
			.map(({ itemIndex, error }) => `• item ${itemIndex}: ${error.message}`);
		if (failures.length > 20) others.push(`• … and ${failures.length - 20} more`);
		lines.push(`${failures.length} items failed. The others:\n${others.join('\n')}`);
	}
	if (notSent.length > 0) {
		lines.push(
			notSent.length === 1
				? `Item ${notSent[0]} was not sent after this failure.`
				: `${notSent.length} items were not sent after this failure (items ${ranges(notSent)}).`,
		);
	}
	lines.push(CONTINUE_ON_FAIL_HINT);
	appendDescription(first, lines.join('\n'));
	throw run.mask(first);
}

/** `[1, 2, 3, 7]` → `1–3, 7`. */
function ranges(indexes: number[]): string {
	const parts: string[] = [];
	let start = indexes[0];
	let previous = start;
	for (const index of [...indexes.slice(1), Number.NaN]) {
		if (index === previous + 1) {
			previous = index;
			continue;
		}
		parts.push(start === previous ? `${start}` : `${start}–${previous}`);
		start = index;
		previous = index;
	}
	return parts.join(', ');
}

/** The operation a node's resource and operation parameters name (the same for every item). */
function resolveOperation<T>(
	fns: IExecuteFunctions,
	operations: Record<string, Record<string, T>>,
): T {
	const resource = fns.getNodeParameter('resource', 0) as string;
	const operationName = fns.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			fns.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}
	return operation;
}
