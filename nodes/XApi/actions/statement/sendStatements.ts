import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome, PreparedItem } from '../../../shared/items/operation';
import type { StatementWithId } from '../../helpers/statementInput';
import type { LrsRun } from '../../transport';
import { asPushed, deliverStatements } from '../../transport/delivery';

/** What an item's output says about its statement (`recorded`). */
export const RECORDED = 'recorded';
export const ALREADY_RECORDED = 'already recorded';
export const ALREADY_RECORDED_OTHER_CONTENT = 'already recorded with other content';

const CONTENT_NOTES = {
	other: (id: string) =>
		`The record store already holds another statement with id ${id}, derived from this idempotency key: the event was recorded before with other content, and this statement was not stored. Use another idempotency key if this is a different event.`,
	unknown: (id: string) =>
		`The record store already holds a statement with id ${id}, derived from this idempotency key, and cannot be read to compare it with this one: if the event's values changed since it was first sent, the first version stays recorded.`,
};

/** The store may already have it: a repeat after a lost answer, or an event resent under its key. */
export async function sendStatements(
	run: LrsRun,
	items: Array<PreparedItem<{ statement: StatementWithId; idempotencyKey?: string }>>,
	options: { batchSize: number; stopAfterFailure: boolean },
	describe: (statement: StatementWithId) => IDataObject = () => ({}),
): Promise<Map<number, ItemOutcome>> {
	const pending = items.map(({ itemIndex, input }) => ({
		itemIndex,
		// The push endpoint gets the statement exactly as its page shows it.
		statement: run.canRead ? input.statement : asPushed(input.statement),
		idempotencyKey: input.idempotencyKey,
	}));
	const delivered = await deliverStatements(run, pending, options);
	const outcomes = new Map<number, ItemOutcome>();
	for (const { itemIndex, statement, idempotencyKey } of pending) {
		const outcome = delivered.get(itemIndex) ?? { status: 'notSent' };
		if (outcome.status !== 'stored') {
			outcomes.set(itemIndex, outcome);
			continue;
		}
		const keyed = idempotencyKey === undefined ? {} : { idempotencyKey };
		outcomes.set(itemIndex, {
			status: 'done',
			json: {
				statementId: statement.id,
				...keyed,
				...describe(statement),
				alreadyStored: outcome.alreadyStored,
				recorded:
					outcome.content === 'other'
						? ALREADY_RECORDED_OTHER_CONTENT
						: outcome.alreadyStored
							? ALREADY_RECORDED
							: RECORDED,
				...(outcome.content ? { note: CONTENT_NOTES[outcome.content](statement.id) } : {}),
				statement: statement as unknown as IDataObject,
			},
		});
	}
	return outcomes;
}
