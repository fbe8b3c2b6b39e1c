import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Every operation file exports one of these. `prepare` reads and validates one item's
 * parameters without sending anything, so the router can check every item before the first
 * request; `execute` then does the work for that item.
 */
export interface Operation<Input = unknown> {
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): Input;
	execute(
		this: IExecuteFunctions,
		input: Input,
		itemIndex: number,
	): Promise<IDataObject | IDataObject[]>;
}
