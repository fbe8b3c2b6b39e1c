import type { IExecuteFunctions, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	appendDescription,
	assertAllValid,
	CONTINUE_ON_FAIL_HINT,
	withProgress,
} from '../../shared/itemFailures';
import { errorItem, pairedItems } from '../../shared/items';
import type { Prepared } from '../../shared/operation';
import { prepareItem, resolveOperation } from '../../shared/operation';
import { mapWithConcurrency } from '../../shared/pool';
import type {
	ItemOperation,
	Operation,
	PreparedItem,
	StatementOperation,
	StatementOutcome,
} from './operation';
import * as statement from './statement';
import { lrsCredentials, lrsRedactor } from '../transport';

const operations: Record<string, Record<string, Operation>> = {
	statement: {
		send: statement.send,
		get: statement.get,
		getMany: statement.getMany,
		void: statement.voidStatement,
	},
};

/** Reads in flight at once; record stores publish no rate limit, and 429s are waited out. */
const READ_CONCURRENCY = 4;

/**
 * The only place that loops over items. Every item is validated before the first request, so
 * one bad item cannot leave half a run sent. Output keeps the input order, every output item is
 * paired with its input, and with Continue On Fail a failing item becomes an error item while
 * the others go on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operation = resolveOperation(this, operations);
	const continueOnFail = this.continueOnFail();

	const prepared = items.map((_, itemIndex) => prepareItem.call(this, operation, itemIndex));
	if (!continueOnFail) assertAllValid(prepared);

	// Every error is masked with the credential's secrets before anyone sees it.
	const redactor = lrsRedactor(await lrsCredentials.call(this));
	try {
		const results =
			operation.kind === 'item'
				? await runItems.call(this, operation, prepared, continueOnFail)
				: await runStatements.call(this, operation, prepared, continueOnFail);
		return [results.flat().map((item) => (item.json.error ? redactor.value(item) : item))];
	} catch (error) {
		throw redactor.error(error);
	}
}

async function runItems(
	this: IExecuteFunctions,
	operation: ItemOperation,
	prepared: Prepared[],
	continueOnFail: boolean,
): Promise<INodeExecutionData[][]> {
	let completed = 0;
	const results = await mapWithConcurrency(
		prepared,
		READ_CONCURRENCY,
		async (entry, itemIndex) => {
			if ('error' in entry) return [errorItem(entry.error, itemIndex, this.getNode())];
			try {
				const data = await operation.execute.call(this, entry.input, itemIndex);
				completed++;
				return pairedItems(data, itemIndex);
			} catch (error) {
				if (continueOnFail) return [errorItem(error, itemIndex, this.getNode())];
				throw withProgress(error, completed, prepared.length);
			}
		},
		this.getExecutionCancelSignal?.(),
	);
	// A cancelled run starts no further item; those never started have no output.
	return results.map((result) => result ?? []);
}

/**
 * Statement writes go in batches. Without Continue On Fail every deliverable statement is still
 * delivered, and then the node fails naming the items that were not.
 */
async function runStatements(
	this: IExecuteFunctions,
	operation: StatementOperation,
	prepared: Prepared[],
	continueOnFail: boolean,
): Promise<INodeExecutionData[][]> {
	const valid: Array<PreparedItem<unknown>> = [];
	prepared.forEach((entry, itemIndex) => {
		if ('input' in entry) valid.push({ itemIndex, input: entry.input });
	});
	const outcomes =
		valid.length > 0
			? await operation.execute.call(this, valid, { stopAfterFailure: !continueOnFail })
			: new Map<number, StatementOutcome>();
	if (!continueOnFail) assertAllDelivered(this, valid, outcomes, prepared.length);
	return prepared.map((entry, itemIndex) => {
		if ('error' in entry) return [errorItem(entry.error, itemIndex, this.getNode())];
		const outcome = outcomes.get(itemIndex);
		if (outcome?.status === 'stored') return pairedItems(outcome.json, itemIndex);
		if (outcome?.status === 'failed') return [errorItem(outcome.error, itemIndex, this.getNode())];
		const reason = outcome?.status === 'notSent' ? outcome.reason : undefined;
		const notSent = reason
			? `Not sent: an earlier batch failed (${reason})`
			: 'The statement was not sent';
		return [errorItem(new Error(notSent), itemIndex, this.getNode())];
	});
}

function assertAllDelivered(
	context: IExecuteFunctions,
	sent: Array<PreparedItem<unknown>>,
	outcomes: Map<number, StatementOutcome>,
	total: number,
): void {
	const failed: Array<{ itemIndex: number; error: NodeApiError | NodeOperationError }> = [];
	const notSent: number[] = [];
	let stored = 0;
	for (const { itemIndex } of sent) {
		const outcome = outcomes.get(itemIndex);
		if (outcome?.status === 'stored') stored++;
		else if (outcome?.status === 'failed') failed.push({ itemIndex, error: outcome.error });
		else notSent.push(itemIndex);
	}
	if (failed.length === 0 && notSent.length === 0) return;
	const first =
		failed[0]?.error ??
		new NodeOperationError(context.getNode(), 'Some statements were not sent', {
			itemIndex: notSent[0],
		});
	const lines = [`${stored} of ${total} statements were stored.`];
	if (failed.length > 1) {
		const others = failed
			.slice(1, 20)
			.map(({ itemIndex, error }) => `• item ${itemIndex}: ${error.message}`);
		if (failed.length > 20) others.push(`• … and ${failed.length - 20} more`);
		lines.push(`${failed.length} items failed. The others:\n${others.join('\n')}`);
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
	throw first;
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
