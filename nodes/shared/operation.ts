import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * An operation that works item by item. Its file exports `description`, `prepare` (reads and
 * validates one item's parameters without sending anything, so a router can check every item
 * before the first request) and `execute` (does the work for that item).
 */
export interface ItemOperation<Input = unknown> {
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): Input;
	execute(
		this: IExecuteFunctions,
		input: Input,
		itemIndex: number,
	): Promise<IDataObject | IDataObject[]>;
}

/** The operation a node's resource and operation parameters name (they are the same for every item). */
export function resolveOperation<T>(
	context: IExecuteFunctions,
	operations: Record<string, Record<string, T>>,
): T {
	const resource = context.getNodeParameter('resource', 0) as string;
	const operationName = context.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}
	return operation;
}

export type Prepared = { input: unknown } | { error: unknown };

/** One item's prepared input, or the error that says why it is invalid (nothing is sent). */
export function prepareItem(
	this: IExecuteFunctions,
	operation: Pick<ItemOperation, 'prepare'>,
	itemIndex: number,
): Prepared {
	try {
		return { input: operation.prepare.call(this, itemIndex) };
	} catch (error) {
		return { error };
	}
}
