import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome, PreparedItem } from '../../../shared/items/operation';
import type { StatementWithId } from '../../helpers/statementInput';
import type { LrsRun } from '../../transport';
import { deliverStatements } from '../../transport/delivery';

/**
 * Delivers the items' statements and describes each item's result: the statement's id, the
 * statement sent, and whether the record store already had it (a repeat after a lost answer).
 */
export async function sendStatements(
	run: LrsRun,
	items: Array<PreparedItem<{ statement: StatementWithId }>>,
	options: { batchSize: number; stopAfterFailure: boolean },
	describe: (statement: StatementWithId) => IDataObject = () => ({}),
): Promise<Map<number, ItemOutcome>> {
	const pending = items.map(({ itemIndex, input }) => ({ itemIndex, statement: input.statement }));
	const delivered = await deliverStatements(run, pending, options);
	const outcomes = new Map<number, ItemOutcome>();
	for (const { itemIndex, statement } of pending) {
		const outcome = delivered.get(itemIndex) ?? { status: 'notSent' };
		if (outcome.status !== 'stored') {
			outcomes.set(itemIndex, outcome);
			continue;
		}
		outcomes.set(itemIndex, {
			status: 'done',
			json: {
				statementId: statement.id,
				...describe(statement),
				alreadyStored: outcome.alreadyStored,
				statement: statement as unknown as IDataObject,
			},
		});
	}
	return outcomes;
}
