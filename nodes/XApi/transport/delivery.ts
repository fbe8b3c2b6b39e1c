import { type IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemOutcome, PreparedItem } from '../../shared/items/operation';
import { isPlainObject } from '../../shared/form/input';
import { type LrsRun, tryLrsRequest } from './index';
import { recordedAlike, rememberRecorded } from './recordedIds';
import { isSameStatement } from './sameStatement';
import type { StatementWithId } from './statementIds';
import { readStatement, storedIdsShape } from './statements';

/** `batchSize`: the same for every item of a run (the first item's is taken). */
type Sent = {
	statement: StatementWithId;
	idempotencyKey?: string;
	batchSize?: number;
	/** Void's: the statement it voids, named in the output. */
	voidedStatementId?: string;
};

/** `id`: the statement's id in lower case, as stores compare ids. */
type Pending = Sent & { itemIndex: number; id: string };

/** 50-fold fewer requests, bodies far below stores' limits, a rejected batch narrowed in six halvings. */
export const DEFAULT_BATCH_SIZE = 50;

const CONTENT_NOTES = {
	other: (id: string) =>
		`The record store already holds another statement with id ${id}, derived from this idempotency key: the event was recorded before with other content, and this statement was not stored. Use another idempotency key if this is a different event.`,
	unknown: (id: string) =>
		`The record store already holds a statement with id ${id}, derived from this idempotency key, and cannot be read to compare it with this one: if the event's values changed since it was first sent, the first version stays recorded.`,
};

/**
 * A store takes or rejects a batch whole: a 400, 409 or 413 halves it until the culprits stand alone.
 * The store may already have a statement: a repeat after a lost answer, or an event resent under its key.
 */
export async function sendStatements(
	run: LrsRun,
	items: Array<PreparedItem<Sent>>,
	{ stopAfterFailure }: { stopAfterFailure: boolean },
): Promise<Map<number, ItemOutcome>> {
	const pending = items.map(({ itemIndex, input }) => {
		const statement = run.canRead ? input.statement : asPushed(input.statement);
		return { ...input, itemIndex, statement, id: statement.id.toLowerCase() };
	});
	// The push endpoint documents one statement per request, no arrays.
	const batchSize = items[0]?.input.batchSize ?? (run.canRead ? DEFAULT_BATCH_SIZE : 1);
	const delivery = new Delivery(run, stopAfterFailure);
	for (const batch of batchesOf(pending, batchSize)) await delivery.send(batch);
	return delivery.outcomes;
}

/** The actor's `objectType` given, as the push endpoint's page shows; the same statement for xAPI. */
function asPushed(statement: StatementWithId): StatementWithId {
	const { actor } = statement;
	if (!isPlainObject(actor) || actor.objectType !== undefined || Array.isArray(actor.member))
		return statement;
	return { ...statement, actor: { ...actor, objectType: 'Agent' } };
}

/** Consecutive batches; a repeated id starts a new batch, since stores reject such a batch. */
function batchesOf(pending: Pending[], batchSize: number): Pending[][] {
	const batches: Pending[][] = [];
	for (const entry of pending) {
		const last = batches[batches.length - 1] as Pending[] | undefined;
		if (last && last.length < batchSize && !last.some(({ id }) => id === entry.id))
			last.push(entry);
		else batches.push([entry]);
	}
	return batches;
}

class Delivery {
	readonly outcomes = new Map<number, ItemOutcome>();

	/** By lower-case id: a repeat within the run is not sent again. */
	private readonly storedHere = new Map<string, StatementWithId>();

	private stoppedBecause: string | undefined;

	constructor(
		private readonly run: LrsRun,
		private readonly stopAfterFailure: boolean,
	) {}

	async send(whole: Pending[]): Promise<void> {
		const reason = this.stoppedBecause;
		if (reason !== undefined) {
			for (const { itemIndex } of whole)
				this.outcomes.set(itemIndex, { status: 'notSent', reason });
			return;
		}
		const batch = whole.filter((entry) => {
			const earlier = this.storedHere.get(entry.id);
			if (!earlier || !isSameStatement(entry.statement, earlier)) return true;
			this.done(entry, true);
			return false;
		});
		if (batch.length === 0) return;
		const { canRead } = this.run;
		const outcome = await tryLrsRequest(this.run, {
			method: 'POST',
			body: batch.length === 1 ? batch[0].statement : batch.map((entry) => entry.statement),
			action: describeBatch(batch),
			itemIndex: batch[0].itemIndex,
			answer: canRead
				? { schema: storedIdsShape, is: 'the ids of the stored statements' }
				: undefined,
			allowEmpty: !canRead,
		});
		if (outcome.ok) {
			const sent = batch.map((entry) => entry.id);
			// The push endpoint documents no answer body: ids are checked where it sends them.
			const { body } = outcome;
			const listed = Array.isArray(body) && body.every((id) => typeof id === 'string');
			const ids = listed ? (body as string[]) : sent;
			const confirmed =
				ids.length === sent.length && ids.every((id, i) => id.toLowerCase() === sent[i]);
			if (confirmed) return this.store(batch, false);
			const error = new NodeApiError(
				this.run.fns.getNode(),
				{ message: 'unexpected answer' },
				{
					itemIndex: batch[0].itemIndex,
					message: `${describeBatch(batch)} failed (unexpected answer: the record store confirmed other statement ids than the ones sent)`,
					description: `Sent ${sent.length} ids, confirmed ${ids.length}. The statements may or may not be stored; sending them again is safe, since they keep their ids.`,
				},
			);
			for (const entry of batch) this.fail(entry, error);
			this.stoppedBecause = 'the record store confirmed other statement ids than the ones sent';
			return;
		}
		const { status, error } = outcome;
		const single = batch.length === 1;
		// The push endpoint refuses unknown content or learners with undocumented 4xx statuses.
		const refused =
			status === 400 ||
			status === 413 ||
			(!canRead && isStatementsFault(status) && status !== 408 && status !== 409);
		if (refused) {
			if (!single) return await this.sendHalves(batch);
			const hint =
				status === 413
					? 'This one statement is larger than the record store accepts.'
					: 'The record store rejected this statement.';
			error.description = error.description ? `${hint}\n${error.description}` : hint;
			return this.fail(batch[0], error);
		}
		if (status === 409) {
			if (canRead && (single || outcome.repeated))
				return await this.resolveConflictByReading(batch);
			if (!single) return await this.sendHalves(batch);
			return this.settleConflict(batch[0], this.alike(batch[0]), outcome.repeated, error);
		}
		for (const entry of batch) this.fail(entry, error);
		// Auth, server or network failures would fail every later batch too, each after its deadline.
		if (this.stopAfterFailure || !isStatementsFault(status)) this.stoppedBecause = error.message;
	}

	private async sendHalves(batch: Pending[]): Promise<void> {
		const middle = Math.ceil(batch.length / 2);
		await this.send(batch.slice(0, middle));
		await this.send(batch.slice(middle));
	}

	/** 409 from a readable store: an earlier attempt may be stored, so each statement is read back. */
	private async resolveConflictByReading(batch: Pending[]): Promise<void> {
		const missing: Pending[] = [];
		for (const entry of batch) {
			const { id } = entry.statement;
			const action = `Checking the stored statement ${id}`;
			const qs = { statementId: id, format: 'exact' };
			const read = await readStatement(this.run, id, qs, action, entry.itemIndex);
			if (!read.ok && read.status === 404) missing.push(entry);
			else if (!read.ok) this.fail(entry, read.error);
			else this.settleConflict(entry, isSameStatement(entry.statement, read.statement));
		}
		if (missing.length === 0) return;
		if (missing.length < batch.length) return await this.send(missing);
		// None of ours is there, so the conflict is not explained by an earlier attempt.
		if (missing.length === 1) return this.fail(missing[0], this.conflictError(missing[0]));
		await this.sendHalves(missing);
	}

	/** 409: the statement under the id (read back, or remembered) decides; else a repeat is ours. */
	private settleConflict(entry: Pending, same?: boolean, repeated = false, cause?: NodeApiError) {
		const keyed = entry.idempotencyKey !== undefined;
		if (same || (same === undefined && repeated)) this.store([entry], true);
		else if (keyed && same === false) this.done(entry, true, 'other');
		else if (keyed) this.store([entry], true, 'unknown');
		else this.fail(entry, this.conflictError(entry, cause));
	}

	/** Only statements with derived ids are remembered: for the others there is nothing to compare. */
	private alike({ idempotencyKey, statement }: Pending): boolean | undefined {
		return idempotencyKey === undefined ? undefined : recordedAlike(this.run.clientKey, statement);
	}

	private store(batch: Pending[], alreadyStored: boolean, content?: 'unknown'): void {
		for (const entry of batch) {
			this.done(entry, alreadyStored || this.alike(entry) === true, content);
			this.storedHere.set(entry.id, entry.statement);
			if (entry.idempotencyKey !== undefined && !content)
				rememberRecorded(this.run.clientKey, entry.statement);
		}
	}

	/** `other`: other content already under this derived id (not stored, not failed); `unknown`: unreadable. */
	private done(entry: Pending, alreadyStored: boolean, content?: 'other' | 'unknown'): void {
		const { itemIndex, statement, idempotencyKey, voidedStatementId } = entry;
		// Other content is only ever found already stored.
		const other = content === 'other' ? ' with other content' : '';
		this.outcomes.set(itemIndex, {
			status: 'done',
			json: {
				statementId: statement.id,
				...(idempotencyKey === undefined ? {} : { idempotencyKey }),
				...(voidedStatementId === undefined ? {} : { voidedStatementId }),
				alreadyStored,
				recorded: `${alreadyStored ? 'already ' : ''}recorded${other}`,
				...(content ? { note: CONTENT_NOTES[content](statement.id) } : {}),
				statement: statement as unknown as IDataObject,
			},
		});
	}

	private fail(entry: Pending, error: NodeApiError | NodeOperationError): void {
		this.outcomes.set(entry.itemIndex, { status: 'failed', error });
	}

	private conflictError(entry: Pending, cause?: NodeApiError): NodeOperationError {
		const id = entry.statement.id;
		return new NodeOperationError(
			this.run.fns.getNode(),
			`A different statement already has id ${id} (item ${entry.itemIndex})`,
			{
				itemIndex: entry.itemIndex,
				description: `The record store answered 409 Conflict${cause?.description ? `: ${cause.description}` : ''}. Statement ids are permanent: leave the statement ID empty to get a new one, or give this statement an ID of its own.`,
			},
		);
	}
}

/** A 4xx that can be the statements' own fault, not the store's, network's or credentials'. */
function isStatementsFault(status: number | undefined): boolean {
	return status !== undefined && status >= 400 && status < 500 && ![401, 403, 429].includes(status);
}

function describeBatch([first, ...rest]: Pending[]): string {
	const last = rest[rest.length - 1];
	if (!last) return `Sending the statement of item ${first.itemIndex} (id ${first.statement.id})`;
	return `Sending ${rest.length + 1} statements (items ${first.itemIndex} to ${last.itemIndex})`;
}
