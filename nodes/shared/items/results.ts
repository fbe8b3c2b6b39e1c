import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';
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
 * The item Continue On Fail emits. n8n 2.x sends an item down a node's error output ("Continue
 * (using error output)") only when its json holds nothing but `error`, `message` and `details`,
 * so everything else the error names (description, HTTP code, transaction id, …) goes in
 * `details`. n8n 1.x routes only `{error}` or `{error, message}`: there the error output gets
 * `message` (the description) instead of `details`. (Setting `item.error` would route it on
 * both, but n8n then replaces the json with the message alone.)
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
	if (node.onError === 'continueErrorOutput' && !ROUTES_ERROR_DETAILS) {
		json.message = nodeError.description ?? nodeError.message;
	} else if (Object.keys(details).length > 0) {
		json.details = details;
	}
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Whether the host's engine routes `{error, details}` to the error output: n8n 2.x, whose
 * n8n-workflow (the host's, at run time) is the first to export `checkNodesApiVersion`.
 */
const ROUTES_ERROR_DETAILS =
	typeof (workflow as Record<string, unknown>).checkNodesApiVersion === 'function';
