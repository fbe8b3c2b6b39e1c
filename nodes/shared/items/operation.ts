import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { Deadline } from '../pacing/deadline';
import type { RequestingFunctions } from '../request/call';
import type { Redactor } from '../request/redact';

/**
 * What an operation is, and how a node lists its operations: each resource's `index.ts` names
 * its operations once (`Resource`), and the node's form, its subtitle and the router's map of
 * operations are all derived from that list.
 */

/**
 * What every execution of a node shares, created by the router before the first item and
 * passed to operations and transport explicitly: n8n's functions, the cancel signal, whether
 * the run has stopped at a failed item, and how errors and output are masked. Each node adds
 * its own parts (credentials, throttle, catalog index, …).
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
	 * A deadline for one operation, ending early if the execution is cancelled; with
	 * `startsAtFirstSlot`, counted from its first request's throttle slot.
	 */
	deadline(budgetMs: number, options?: { startsAtFirstSlot?: boolean }): Deadline;
}

/**
 * Opens a run: the parts every run has, and the node's own. Errors are masked with what is
 * known when they happen (`errorMasks`, asked each time: a token may be issued during the
 * run), output with one redactor whose pattern is built once (`outputMasks`).
 */
export function openRun<F extends RequestingFunctions, P extends object>(
	fns: F,
	masks: { errorMasks: () => Redactor; outputMasks: Redactor },
	parts: P,
): Run & { fns: F } & P {
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
	return Object.defineProperties(run, Object.getOwnPropertyDescriptors(parts)) as Run & { fns: F } & P;
}

/** An item's place among those the router keeps in flight. */
export interface PoolPlace {
	/**
	 * Gives the place to the next item while this one goes on without needing it (it only
	 * waits, e.g. for a transaction to finish). Idempotent; given back at the end anyway.
	 */
	release(): void;
}

/**
 * Both steps of an operation take their context as the first argument: `prepare` n8n's
 * functions (it reads and checks one item, sending nothing), `execute` the run.
 */
interface Described<Input> {
	description: INodeProperties[];
	prepare(fns: IExecuteFunctions, itemIndex: number): Input;
}

/** An operation that works item by item. */
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

/** One operation as its resource lists it: what the editor shows, and the code that runs. */
export interface ListedOperation<R extends Run> {
	/** The option's name in the Operation list, e.g. "Create or Update". */
	name: string;
	description: string;
	/** What it does, e.g. "Create or update a course": the option's action and the node's subtitle. */
	action: string;
	/** What an AI agent is told of it as a tool: what it needs and what it answers. */
	toolDescription: string;
	operation: Operation<R>;
}

/** A resource and its operations, listed once. */
export interface Resource<R extends Run> {
	/** The `resource` parameter's value, e.g. `course`. */
	resource: string;
	/** Its name in the Resource list, e.g. "Course". */
	label: string;
	defaultOperation: string;
	/** By the `operation` parameter's value. */
	operations: Record<string, ListedOperation<R>>;
}

/** The parts of routing that differ between nodes. */
export interface NodeRouting<R extends Run> {
	resources: ReadonlyArray<Resource<R>>;
	/** Creates the run: reads the credential once, sets up what the transport needs. */
	openRun(fns: IExecuteFunctions): Promise<R>;
	/** Items in flight at once for item operations. */
	concurrency(run: R): number;
	/** What the items are called in a summary ("statements"). */
	itemsAre: string;
}

/** The node's form: the Resource selector, then each resource's Operation selector and forms. */
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
				...listed.map(([value, entry]) => toolDescriptionProperty(resource.resource, value, entry)),
				...listed.flatMap(([, entry]) => entry.operation.description),
			];
		}),
	];
}

/**
 * The tool variant's description of one operation, shown only there (`@tool`). n8n's tool
 * conversion adds its own Tool Description ("<action> in <node>") only to a node without one;
 * this one starts with what the operation needs and answers, and stays editable.
 */
function toolDescriptionProperty<R extends Run>(
	resource: string,
	operation: string,
	{ toolDescription }: ListedOperation<R>,
): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: toolDescription,
		required: true,
		description:
			'What an AI agent is told about this tool: what it needs and what it answers. Edit it to narrow what the agent should use it for.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

/** The node's subtitle: the action of the chosen operation ("Create or update a course"). */
export function subtitleOf<R extends Run>(resources: ReadonlyArray<Resource<R>>): string {
	const actions: Record<string, string> = {};
	for (const resource of resources) {
		for (const [value, { action }] of Object.entries(resource.operations)) {
			actions[`${resource.resource}:${value}`] = action;
		}
	}
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

/** The operation the node's resource and operation parameters name, or undefined. */
export function findOperation<R extends Run>(
	resources: ReadonlyArray<Resource<R>>,
	resource: string,
	operation: string,
): Operation<R> | undefined {
	const listed = resources.find((r) => r.resource === resource)?.operations;
	return listed && Object.prototype.hasOwnProperty.call(listed, operation)
		? listed[operation].operation
		: undefined;
}

/** The Options collection an operation's form ends with (n8n's usual label and placeholder). */
export function optionsCollection(
	options: INodeProperties[],
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return collection('Options', 'Add option', options, extra);
}

/** The "Additional Fields" collection of an operation, as n8n's own nodes show it. */
export function additionalFields(
	options: INodeProperties[],
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return collection('Additional Fields', 'Add field', options, extra);
}

function collection(
	displayName: string,
	placeholder: string,
	options: INodeProperties[],
	extra: Partial<INodeProperties>,
): INodeProperties {
	const name = displayName === 'Options' ? 'options' : 'additionalFields';
	return { displayName, name, type: 'collection', placeholder, default: {}, ...extra, options };
}
