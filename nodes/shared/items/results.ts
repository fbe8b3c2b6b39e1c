import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemOutcome, PreparedItem, Run } from './operation';

/**
 * What becomes of items: output paired with its input, the error item of Continue On Fail, and
 * the messages that say which items failed and how far a stopped run got.
 */

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

type Described = Error & { description?: string | null };

/** Adds a paragraph to an n8n error's description (shown under its message). */
export function appendDescription(error: unknown, text: string): void {
	if (!error || typeof error !== 'object') return;
	const e = error as Described;
	e.description = e.description ? `${e.description}\n\n${text}` : text;
}

/** Throws the first item error, its description listing the other invalid items. */
export function assertAllValid(prepared: ReadonlyArray<{ error: unknown } | object>): void {
	const invalid = prepared.flatMap((entry) =>
		'error' in entry ? [(entry as { error: unknown }).error as Described] : [],
	);
	if (invalid.length === 0) return;
	const first = invalid[0];
	if (invalid.length > 1) {
		const others = invalid.slice(1, 20).map((e) => `• ${e.message}`);
		const more = invalid.length > 20 ? [`• … and ${invalid.length - 20} more`] : [];
		appendDescription(
			first,
			`${invalid.length} items are invalid; nothing was sent. The others:\n${[...others, ...more].join('\n')}`,
		);
	}
	throw first;
}

export const CONTINUE_ON_FAIL_HINT =
	'Turn on "Continue On Fail" (Settings → On Error) to process every item and get an error item for each failing one.';

/** Says how far the run got, so a stopped run is never a silent half batch. */
export function withProgress(error: unknown, completed: number, total: number): unknown {
	if (total <= 1) return error;
	appendDescription(
		error,
		`${completed} of ${total} items had completed before this failure; items not yet started were not sent. ${CONTINUE_ON_FAIL_HINT}`,
	);
	return error;
}

/** Without Continue On Fail: throws unless every item sent was done, naming the failed and the unsent. */
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
		const others = failures
			.slice(1, 20)
			.map(({ itemIndex, error }) => `• item ${itemIndex}: ${error.message}`);
		if (failures.length > 20) others.push(`• … and ${failures.length - 20} more`);
		lines.push(`${failures.length} items failed. The others:\n${others.join('\n')}`);
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

/** `[1, 2, 3, 7]` → `1–3, 7`. */
function ranges(indexes: number[]): string {
	const parts: string[] = [];
	let start = indexes[0];
	let previous = start;
	for (const index of [...indexes.slice(1), Number.NaN]) {
		if (index === previous + 1) {
			previous = index;
			continue;
		}
		parts.push(start === previous ? `${start}` : `${start}–${previous}`);
		start = index;
		previous = index;
	}
	return parts.join(', ');
}
