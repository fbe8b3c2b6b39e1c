import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Run } from '../request/call';
import type { ItemOutcome, PreparedItem } from './operation';

export function pairedItems(
	data: IDataObject | IDataObject[],
	itemIndex: number,
): INodeExecutionData[] {
	const list = Array.isArray(data) ? data : [data];
	return list.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/** n8n 2.x routes only {error, message, details} to the error output, 1.x only {error, message}. */
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

/** n8n 2.x: the first whose n8n-workflow (the host's) exports `checkNodesApiVersion`. */
const ROUTES_ERROR_DETAILS =
	typeof (workflow as Record<string, unknown>).checkNodesApiVersion === 'function';

type Described = Error & { description?: string | null };

export function appendDescription(error: unknown, text: string): void {
	if (!error || typeof error !== 'object') return;
	const e = error as Described;
	e.description = e.description ? `${e.description}\n\n${text}` : text;
}

export function assertAllValid(
	prepared: ReadonlyArray<{ input: unknown } | { error: unknown }>,
): void {
	const invalid = prepared.flatMap((entry) => ('error' in entry ? [entry.error as Described] : []));
	if (invalid.length === 0) return;
	if (invalid.length > 1) {
		appendDescription(
			invalid[0],
			`${invalid.length} items are invalid; nothing was sent. The others:\n${others(invalid.map((e) => e.message))}`,
		);
	}
	throw invalid[0];
}

export const CONTINUE_ON_FAIL_HINT =
	'Turn on "Continue On Fail" (Settings → On Error) to process every item and get an error item for each failing one.';

/** A stopped run is never a silent half batch. */
export function withProgress(error: unknown, completed: number, total: number): unknown {
	if (total <= 1) return error;
	appendDescription(
		error,
		`${completed} of ${total} items had completed before this failure; items not yet started were not sent. ${CONTINUE_ON_FAIL_HINT}`,
	);
	return error;
}

export function assertAllDone(
	run: Run,
	sent: Array<PreparedItem<unknown>>,
	outcomes: Map<number, ItemOutcome>,
	total: number,
	itemsAre: string,
): void {
	const failures: Array<{ itemIndex: number; error: Error }> = [];
	const notSent: number[] = [];
	let done = 0;
	for (const { itemIndex } of sent) {
		const outcome = outcomes.get(itemIndex);
		if (outcome?.status === 'done') done++;
		else if (outcome?.status === 'failed') failures.push({ itemIndex, error: outcome.error });
		else notSent.push(itemIndex);
	}
	if (failures.length === 0 && notSent.length === 0) return;
	const first =
		failures[0]?.error ??
		new NodeOperationError(run.fns.getNode(), `Some ${itemsAre} were not sent`, {
			itemIndex: notSent[0],
		});
	const lines = [`${done} of ${total} ${itemsAre} were stored.`];
	if (failures.length > 1) {
		const messages = failures.map(({ itemIndex, error }) => `item ${itemIndex}: ${error.message}`);
		lines.push(`${failures.length} items failed. The others:\n${others(messages)}`);
	}
	if (notSent.length > 0) {
		lines.push(
			notSent.length === 1
				? `Item ${notSent[0]} was not sent after this failure.`
				: `${notSent.length} items were not sent after this failure (items ${ranges(notSent)}).`,
		);
	}
	lines.push(CONTINUE_ON_FAIL_HINT);
	appendDescription(first, lines.join('\n'));
	throw run.mask(first);
}

/** All but the first, at most 19 of them. */
function others(messages: string[]): string {
	const more = messages.length > 20 ? [`… and ${messages.length - 20} more`] : [];
	return [...messages.slice(1, 20), ...more].map((line) => `• ${line}`).join('\n');
}

function ranges(indexes: number[]): string {
	const parts: string[] = [];
	for (let start = 0; start < indexes.length; ) {
		let end = start;
		while (indexes[end + 1] === indexes[end] + 1) end++;
		parts.push(end === start ? `${indexes[start]}` : `${indexes[start]}–${indexes[end]}`);
		start = end + 1;
	}
	return parts.join(', ');
}
