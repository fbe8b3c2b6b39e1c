import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { Deadline } from '../pacing/time';
import type { RequestingFunctions, Run } from '../request/call';
import type { Redactor } from '../request/secrets';

import type { ItemOutcome, PreparedItem } from './operation';
import type { BatchControl, BatchOperation, NodeRouting, Operation, Resource } from './resources';
import { mapWithConcurrency } from './pool';
import { assertAllDone, assertAllValid, errorItem, pairedItems, withProgress } from './results';

/** Error masks are asked for each time (a token may be issued mid-run); output's are built once. */
/** Checking is synchronous: it yields now and then, so the run's token request goes out meanwhile. */
async function prepareAll<T>(count: number, prepare: (itemIndex: number) => T): Promise<T[]> {
	const prepared: T[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		if (itemIndex % PREPARED_BETWEEN_YIELDS === PREPARED_BETWEEN_YIELDS - 1) await sleep(0);
		prepared.push(prepare(itemIndex));
	}
	return prepared;
}

const PREPARED_BETWEEN_YIELDS = 20;

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

type Prepared = { input: unknown } | { error: unknown };

/** The only loop over items; without Continue On Fail all are checked before anything is sent. */
export async function route<R extends Run>(
	fns: IExecuteFunctions,
	routing: NodeRouting<R>,
): Promise<INodeExecutionData[][]> {
	const items = fns.getInputData();
	const operation = resolveOperation(fns, routing.resources);
	const continueOnFail = fns.continueOnFail();
	const prepare = (itemIndex: number): Prepared => {
		try {
			return { input: operation.prepare(fns, itemIndex) };
		} catch (error) {
			return { error };
		}
	};
	// Opened first: its token is asked for while the items are read and checked.
	const run = await routing.openRun(fns);
	const upFront = !continueOnFail || operation.kind === 'batch';
	const prepared = upFront ? await prepareAll(items.length, prepare) : undefined;
	if (prepared && !continueOnFail) assertAllValid(prepared);

	const failed = (error: unknown, itemIndex: number) => [
		errorItem(run.mask(error), itemIndex, fns.getNode()),
	];
	if (operation.kind === 'batch') {
		const batch = {
			continueOnFail,
			itemsAre: routing.itemsAre,
			concurrency: routing.concurrency(run),
		};
		return [await runBatch(run, operation, prepared!, batch, failed)];
	}
	let completed = 0;
	const results = await mapWithConcurrency(
		items,
		routing.concurrency(run),
		async (_, itemIndex, place) => {
			const entry = prepared?.[itemIndex] ?? prepare(itemIndex);
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

/** Without Continue On Fail every deliverable item is delivered, then the node names the rest. */
async function runBatch<R extends Run>(
	run: R,
	operation: BatchOperation<R, unknown>,
	prepared: Prepared[],
	{
		continueOnFail,
		itemsAre,
		concurrency,
	}: { continueOnFail: boolean; itemsAre: string; concurrency: number },
	failed: (error: unknown, itemIndex: number) => INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const valid = prepared.flatMap(
		(entry, itemIndex): Array<PreparedItem<unknown>> =>
			'input' in entry ? [{ itemIndex, input: entry.input }] : [],
	);
	const unprepared = prepared.flatMap((entry, itemIndex) => ('error' in entry ? [itemIndex] : []));
	const unpaired: INodeExecutionData[] = [];
	const control: BatchControl = {
		stopAfterFailure: !continueOnFail,
		concurrency,
		unprepared,
		output: (json) => unpaired.push({ json: run.maskOutput(json), pairedItem: [] }),
	};
	const outcomes =
		valid.length > 0
			? await operation.execute(run, valid, control)
			: new Map<number, ItemOutcome>();
	if (!continueOnFail) assertAllDone(run, valid, outcomes, prepared.length, itemsAre);
	const paired = prepared.flatMap((entry, itemIndex) => {
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
	return [...paired, ...unpaired];
}

function resolveOperation<R extends Run>(
	fns: IExecuteFunctions,
	resources: ReadonlyArray<Resource<R>>,
): Operation<R> {
	const resource = fns.getNodeParameter('resource', 0) as string;
	const operationName = fns.getNodeParameter('operation', 0) as string;
	const listed = resources.find((r) => r.resource === resource)?.operations;
	if (!listed || !Object.prototype.hasOwnProperty.call(listed, operationName)) {
		throw new NodeOperationError(
			fns.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}
	return listed[operationName].operation;
}
