import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { BatchOperation, ItemOperation, ItemOutcome, Run } from '../../shared/router';
import { route } from '../../shared/router';
import { lrsCredentials, lrsRedactor } from '../transport';
import type { Operation as XApiOperation } from './operation';
import * as statement from './statement';

/** One execution of the xAPI node, as the shared router passes it around. */
type XApiRun = Run & { readonly fns: IExecuteFunctions };

/** Reads in flight at once; record stores publish no rate limit, and 429s are waited out. */
const READ_CONCURRENCY = 4;

/**
 * The xAPI operations in the shared router's terms: reads work item by item; statement writes
 * get every valid item at once (their statements travel in batches) and report an outcome
 * per item.
 */
function routed(
	operation: XApiOperation,
): ItemOperation<XApiRun, unknown> | BatchOperation<XApiRun, unknown> {
	if (operation.kind === 'item') {
		return {
			description: operation.description,
			prepare: operation.prepare,
			execute: async (run, input, itemIndex) =>
				await operation.execute.call(run.fns, input, itemIndex),
		};
	}
	return {
		kind: 'batch',
		description: operation.description,
		prepare: operation.prepare,
		execute: async (run, items, control) => {
			const outcomes = await operation.execute.call(run.fns, items, control);
			const routedOutcomes = new Map<number, ItemOutcome>();
			for (const [itemIndex, outcome] of outcomes) {
				routedOutcomes.set(
					itemIndex,
					outcome.status === 'stored' ? { status: 'done', json: outcome.json } : outcome,
				);
			}
			return routedOutcomes;
		},
	};
}

const operations = {
	statement: {
		send: routed(statement.send),
		get: routed(statement.get),
		getMany: routed(statement.getMany),
		void: routed(statement.voidStatement),
	},
};

async function openXApiRun(fns: IExecuteFunctions): Promise<XApiRun> {
	const credentials = await lrsCredentials.call(fns);
	return {
		fns,
		cancelSignal: fns.getExecutionCancelSignal?.(),
		stopped: false,
		mask: (error) => lrsRedactor(credentials).error(error),
	};
}

/** The xAPI node's parts of the shared router. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route(this, {
		operations,
		openRun: openXApiRun,
		concurrency: () => READ_CONCURRENCY,
		itemsAre: 'statements',
	});
}
