import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Output items for one input item, each paired with it. */
export function pairedItems(
	data: IDataObject | IDataObject[],
	itemIndex: number,
): INodeExecutionData[] {
	const list = Array.isArray(data) ? data : [data];
	return list.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/**
 * The item Continue On Fail emits. n8n sends an item down a node's error output ("Continue
 * (using error output)") only when its json holds nothing but `error`, `message` and `details`,
 * so everything else the error names (description, HTTP code, transaction id, …) goes in
 * `details`. (Setting `item.error` would route it too, but n8n then drops every other field.)
 */
export function errorItem(error: unknown, itemIndex: number, node: INode): INodeExecutionData {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
	const details: IDataObject = {};
	if (nodeError.description) details.description = nodeError.description;
	const httpCode = (nodeError as { httpCode?: string | null }).httpCode;
	if (httpCode) details.httpCode = httpCode;
	const named = nodeError.context?.details;
	if (named && typeof named === 'object') Object.assign(details, named);
	const json: IDataObject = { error: nodeError.message };
	if (Object.keys(details).length > 0) json.details = details;
	return { json, pairedItem: { item: itemIndex } };
}
