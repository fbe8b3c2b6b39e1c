import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Deadline } from '../pacing/time';
import type { RequestingFunctions } from '../request/call';
import type { Redactor } from '../request/secrets';

import type { ItemOutcome, PoolPlace, PreparedItem, Run } from './operation';
import { assertAllDone, assertAllValid, errorItem, pairedItems, withProgress } from './results';

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

export interface BatchControl {
	stopAfterFailure: boolean;
	/** Items whose `prepare` failed (Continue On Fail): a batch may not take them as absent. */
	unprepared: number[];
	/** An output item that comes from no input item (a sync's removal): paired with none. */
	output(json: IDataObject): void;
}

export interface BatchOperation<R extends Run, Input = never> extends Described<Input> {
	kind: 'batch';
	execute(
		run: R,
		items: Array<PreparedItem<Input>>,
		control: BatchControl,
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
	const upFront = !continueOnFail || operation.kind === 'batch';
	const prepared = upFront ? items.map((_, itemIndex) => prepare(itemIndex)) : undefined;
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
	continueOnFail: boolean,
	itemsAre: string,
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

export function resourceProperties<R extends Run>(
	resources: ReadonlyArray<Resource<R>>,
	defaultResource: string,
): INodeProperties[] {
	const byName = <T extends { name: string }>(list: T[]) =>
		[...list].sort((a, b) => a.name.localeCompare(b.name));
	const selector: INodeProperties = {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: byName(resources.map(({ label, resource }) => ({ name: label, value: resource }))),
		default: defaultResource,
	};
	return [
		selector,
		...resources.flatMap((resource) => {
			const listed = Object.entries(resource.operations);
			const { defaultOperation } = resource;
			const operation: INodeProperties = {
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				default: defaultOperation,
				noDataExpression: true,
				displayOptions: { show: { resource: [resource.resource] } },
				options: byName(
					listed.map(([value, { name, description, action }]) => ({
						name,
						value,
						description,
						action,
					})),
				),
			};
			return [
				operation,
				// n8n's tool conversion adds its own Tool Description only to a node that has none.
				...listed.map(
					([value, { toolDescription }]): INodeProperties => ({
						displayName: 'Tool Description',
						name: 'toolDescription',
						type: 'string',
						typeOptions: { rows: 3 },
						default: toolDescription,
						required: true,
						description:
							'What an AI agent is told about this tool: what it needs and what it answers. Edit it to narrow what the agent should use it for.',
						displayOptions: {
							show: { '@tool': [true], resource: [resource.resource], operation: [value] },
						},
					}),
				),
				...listed.flatMap(([, entry]) => entry.operation.description),
			];
		}),
	];
}

export function subtitleOf<R extends Run>(resources: ReadonlyArray<Resource<R>>): string {
	const actions = Object.fromEntries(
		resources.flatMap(({ resource, operations }) =>
			Object.entries(operations).map(([value, { action }]) => [`${resource}:${value}`, action]),
		),
	);
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
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

/** On a failure or an abort no task starts and the started ones finish: none runs on unseen. */
export async function mapWithConcurrency<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T, index: number, place: PoolPlace) => Promise<R>,
	signal?: AbortSignal,
): Promise<Array<R | undefined>> {
	const results = new Array<R | undefined>(items.length);
	let failure: { error: unknown } | undefined;
	let free = Math.max(1, limit);
	let wake: (() => void) | undefined;
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
				free++;
				wake?.();
				wake = undefined;
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
