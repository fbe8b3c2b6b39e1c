import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PoolPlace } from '../pacing/time';
import type { Run } from '../request/call';
import type { ItemOutcome, PreparedItem } from './operation';

/** A node's resources and their operations, listed once: the router routes by them, the form and subtitle come from them. */

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
	/** How many items may be under way at once (the node's pool size). */
	concurrency: number;
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
	/** The subtitle instead of `action` while the node's Options → Dry Run is on. */
	dryRunAction?: string;
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
	const listed = resources.flatMap(({ resource, operations }) =>
		Object.entries(operations).map(([value, entry]) => ({ key: `${resource}:${value}`, ...entry })),
	);
	const actions: Record<string, string> = {};
	const dryRuns = listed.some((entry) => entry.dryRunAction);
	for (const { key, action, dryRunAction } of listed) {
		actions[key] = action;
		// Every operation has one, so an option left over from another operation still names one.
		if (dryRuns) actions[`${key}:dry run`] = dryRunAction ?? action;
	}
	const key = '$parameter["resource"] + ":" + $parameter["operation"]';
	if (!dryRuns) {
		return `={{ ${JSON.stringify(actions)}[${key}] }}`;
	}
	// The Options collection holds only the options added: a fresh node has no Dry Run at all.
	const dryRun = '($parameter["options"] || {})["dryRun"] === true ? ":dry run" : ""';
	return `={{ ${JSON.stringify(actions)}[${key} + (${dryRun})] }}`;
}
