import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { DeliveryOutcome } from '../transport/delivery';

/**
 * Every operation file exports `description`, `prepare` and `execute`. `prepare` reads and
 * validates one item's parameters without sending anything, so that the router can check
 * every item before the first request.
 *
 * Reads run item by item (`kind: 'item'`). Statement writes (`kind: 'statements'`) get every
 * valid item at once, because their statements travel in batches; they report an outcome per
 * item instead of throwing, and the router turns those into output or errors.
 */
export interface ItemOperation<Input = unknown> {
	kind: 'item';
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): Input;
	execute(
		this: IExecuteFunctions,
		input: Input,
		itemIndex: number,
	): Promise<IDataObject | IDataObject[]>;
}

export interface PreparedItem<Input> {
	itemIndex: number;
	input: Input;
}

export type StatementOutcome =
	| { status: 'stored'; json: IDataObject }
	| Exclude<DeliveryOutcome, { status: 'stored' }>;

export interface StatementOperation<Input = unknown> {
	kind: 'statements';
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): Input;
	execute(
		this: IExecuteFunctions,
		items: Array<PreparedItem<Input>>,
		control: { stopAfterFailure: boolean },
	): Promise<Map<number, StatementOutcome>>;
}

export type Operation = ItemOperation | StatementOperation;
