import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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
