import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type {
	BatchOperation,
	ItemOutcome,
	NodeRouting,
	Operation,
	PoolPlace,
	PreparedItem,
	Resource,
	Run,
} from './operation';
import { findOperation } from './operation';
import { assertAllDone, assertAllValid, errorItem, pairedItems, withProgress } from './results';

/**
 * The item runner: the only loop over a node's items. It owns pairing, Continue On Fail,
 * cancellation and masking; item operations run through one bounded pool.
 */

type Prepared = { input: unknown } | { error: unknown };

function prepareItem(
	fns: IExecuteFunctions,
	operation: Operation<Run>,
	itemIndex: number,
): Prepared {
	try {
		return { input: operation.prepare(fns, itemIndex) };
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
	const operation = resolveOperation(fns, routing.resources);
	const continueOnFail = fns.continueOnFail();
	const upFront = !continueOnFail || operation.kind === 'batch';
	const prepared = upFront
		? items.map((_, itemIndex) => prepareItem(fns, operation, itemIndex))
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
	const results = await mapWithConcurrency(
		items,
		routing.concurrency(run),
		async (_, itemIndex, place) => {
			const entry = prepared?.[itemIndex] ?? prepareItem(fns, operation, itemIndex);
			if ('error' in entry) return failed(entry.error, itemIndex);
			try {
				const data = await operation.execute(run, entry.input as never, itemIndex, place);
				completed++;
				return pairedItems(run.maskOutput(data), itemIndex);
			} catch (error) {
				if (continueOnFail) return failed(error, itemIndex);
				run.stopped = true;
				throw withProgress(run.mask(error), completed, items.length);
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

/** The operation a node's resource and operation parameters name (the same for every item). */
function resolveOperation<R extends Run>(
	fns: IExecuteFunctions,
	resources: ReadonlyArray<Resource<R>>,
): Operation<R> {
	const resource = fns.getNodeParameter('resource', 0) as string;
	const operationName = fns.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resources, resource, operationName);
	if (!operation) {
		throw new NodeOperationError(
			fns.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}
	return operation;
}

/**
 * Runs `task` over `items` with at most `limit` holding a place at once; results keep the
 * input order. If a task throws, no new task starts, the ones started finish, and the first
 * error is rethrown: nothing is left running in the background. Once `signal` aborts (the
 * execution was cancelled) no new task starts either; the slots of items never started stay
 * undefined.
 */
export async function mapWithConcurrency<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T, index: number, place: PoolPlace) => Promise<R>,
	signal?: AbortSignal,
): Promise<Array<R | undefined>> {
	const results = new Array<R | undefined>(items.length);
	let failure: { error: unknown } | undefined;
	let free = Math.max(1, limit);
	// Resolves the one waiter for a free place (the loop below waits for one at a time).
	let wake: (() => void) | undefined;
	const giveBack = () => {
		free++;
		const waiter = wake;
		wake = undefined;
		waiter?.();
	};
	const started: Array<Promise<void>> = [];
	for (let index = 0; index < items.length; index++) {
		while (free === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
		if (failure || signal?.aborted) break;
		free--;
		let held = true;
		const slot: PoolPlace = {
			release: () => {
				if (!held) return;
				held = false;
				giveBack();
			},
		};
		started.push(
			task(items[index], index, slot).then(
				(result) => {
					results[index] = result;
					slot.release();
				},
				(error: unknown) => {
					failure ??= { error };
					slot.release();
				},
			),
		);
	}
	await Promise.all(started);
	if (failure) throw failure.error;
	return results;
}
