import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { assertAllValid, withProgress } from '../../shared/itemFailures';
import { errorItem, pairedItems } from '../../shared/items';
import type { ItemOperation } from '../../shared/operation';
import { prepareItem, resolveOperation } from '../../shared/operation';
import { mapWithConcurrency } from '../../shared/pool';
import { lmsConcurrency, lmsCredentials, lmsRedactor, stopSending } from '../transport';
import * as assignment from './assignment';
import * as course from './course';
import * as transaction from './transaction';

const operations: Record<string, Record<string, ItemOperation>> = {
	course: { upsert: course.upsert, getMany: course.getMany, archive: course.archive },
	assignment: {
		assign: assignment.assign,
		withdraw: assignment.withdraw,
		complete: assignment.complete,
		start: assignment.start,
	},
	transaction: { get: transaction.get, wait: transaction.wait },
};

/**
 * The only place that loops over items. Without Continue On Fail every item is validated before
 * the first request, so one bad item cannot leave half a batch sent; with it, each item is
 * validated just before it is sent (an invalid one becomes an error item either way), so the
 * first request goes out at once. Items run concurrently behind the client's throttle. Output
 * keeps the input order and every output item is paired with its input. A cancelled execution
 * starts no further item, and every error is masked before anyone sees it.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operation = resolveOperation(this, operations);
	const continueOnFail = this.continueOnFail();
	const prepare = (itemIndex: number) => prepareItem.call(this, operation, itemIndex);
	const preparedUpFront = continueOnFail
		? undefined
		: items.map((_, itemIndex) => prepare(itemIndex));
	if (preparedUpFront) assertAllValid(preparedUpFront);

	const credentials = await lmsCredentials.call(this);
	// Masks whatever an error says with every secret and token known for this client now.
	const masked = (error: unknown) => lmsRedactor(credentials).error(error);
	let completed = 0;
	const results = await mapWithConcurrency(
		items,
		lmsConcurrency(credentials),
		async (_, itemIndex) => {
			const entry = preparedUpFront?.[itemIndex] ?? prepare(itemIndex);
			if ('error' in entry) return [errorItem(masked(entry.error), itemIndex, this.getNode())];
			try {
				const data = await operation.execute.call(this, entry.input, itemIndex);
				completed++;
				return pairedItems(data, itemIndex);
			} catch (error) {
				if (continueOnFail) return [errorItem(masked(error), itemIndex, this.getNode())];
				stopSending.call(this);
				throw withProgress(masked(error), completed, items.length);
			}
		},
		this.getExecutionCancelSignal?.(),
	);
	return [results.flatMap((result) => result ?? [])];
}
