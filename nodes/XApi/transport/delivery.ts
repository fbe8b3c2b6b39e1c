import { createHash } from 'crypto';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { Statement } from '../validation';
import type { LrsRun } from './index';
import { tryLrsRequest } from './index';
import { canonicalStatement, isSameStatement } from './sameStatement';
import { findStatement, STATEMENTS_PATH, storedIdsShape } from './statements';

/** One item's statement, its id already fixed, so that any attempt can be repeated. */
export interface PendingStatement {
	itemIndex: number;
	statement: Statement & { id: string };
	/** Set when the id was derived from this idempotency key: the same event always has it. */
	idempotencyKey?: string;
}

export type DeliveryOutcome =
	| {
			status: 'stored';
			alreadyStored: boolean;
			/**
			 * `other`: the store holds another statement under this derived id (an earlier send of
			 * the same event with other content): this one was not stored, and the item does not
			 * fail. `unknown`: the store holds one under it and cannot be read to compare.
			 */
			content?: 'other' | 'unknown';
	  }
	| { status: 'failed'; error: NodeApiError | NodeOperationError }
	| { status: 'notSent'; reason?: string };

/**
 * What a store that documents no answer body (the platform's push endpoint) may answer to a
 * stored statement: anything JSON, or nothing. Where it is the ids, they are checked.
 */
const undocumentedAnswer = z.unknown();

export interface DeliveryOptions {
	batchSize: number;
	/** After a failure that is not one statement's fault (auth, server, network), send nothing more. */
	stopAfterFailure: boolean;
}

/**
 * Posts the statements in batches of up to `batchSize`, in item order, one request at a time:
 * a batch of one as the statement object itself (the body the platform's documents show), a
 * larger one as an array. Either way the store answers with the array of the stored ids.
 * A record store takes or rejects a batch as a whole, so a rejection that one statement can
 * cause (400, 409, 413) is narrowed down by halving the batch until the offending statements
 * stand alone; the others are still delivered. Every item gets its own outcome.
 */
export async function deliverStatements(
	run: LrsRun,
	pending: PendingStatement[],
	options: DeliveryOptions,
): Promise<Map<number, DeliveryOutcome>> {
	const delivery = new Delivery(run, options.stopAfterFailure);
	for (const batch of batchesOf(pending, options.batchSize)) await delivery.send(batch);
	return delivery.outcomes;
}

/**
 * A statement as the platform's push endpoint documents it: the actor an Agent with its
 * `objectType` given (xAPI lets it be left out; the endpoint's page shows it). The same
 * statement for xAPI (isSameStatement), so an id keeps meaning one statement.
 */
export function asPushed<S extends Statement>(statement: S): S {
	const actor = statement.actor as unknown as Record<string, unknown> | undefined;
	if (!actor || typeof actor !== 'object' || actor.objectType !== undefined) return statement;
	if (Array.isArray(actor.member)) return statement;
	return { ...statement, actor: { ...actor, objectType: 'Agent' } };
}

/** The POST body of a batch: one statement as a JSON object, two or more as a JSON array. */
export function requestBody(batch: PendingStatement[]): Statement | Statement[] {
	return batch.length === 1 ? batch[0].statement : batch.map((entry) => entry.statement);
}

/** Consecutive batches; a repeated id starts a new batch, since stores reject such a batch. */
export function batchesOf(pending: PendingStatement[], batchSize: number): PendingStatement[][] {
	const batches: PendingStatement[][] = [];
	let current: PendingStatement[] = [];
	let ids = new Set<string>();
	for (const entry of pending) {
		const id = entry.statement.id.toLowerCase();
		if (current.length >= batchSize || ids.has(id)) {
			batches.push(current);
			current = [];
			ids = new Set();
		}
		current.push(entry);
		ids.add(id);
	}
	if (current.length > 0) batches.push(current);
	return batches;
}

class Delivery {
	readonly outcomes = new Map<number, DeliveryOutcome>();

	/** Statements stored by this delivery, by id (lower case): a repeat in the run is not sent again. */
	private readonly storedHere = new Map<string, Statement>();

	/** Set once a failure that is not the statements' fault stops the delivery: why. */
	private stoppedBecause: string | undefined;

	constructor(
		private readonly run: LrsRun,
		private readonly stopAfterFailure: boolean,
	) {}

	async send(whole: PendingStatement[]): Promise<void> {
		if (this.stoppedBecause !== undefined) {
			for (const entry of whole) {
				this.outcomes.set(entry.itemIndex, { status: 'notSent', reason: this.stoppedBecause });
			}
			return;
		}
		// The same statement again in this run (an event delivered twice): stored already, not sent.
		const batch = whole.filter((entry) => {
			const earlier = this.storedHere.get(entry.statement.id.toLowerCase());
			if (!earlier || !isSameStatement(entry.statement, earlier)) return true;
			this.outcomes.set(entry.itemIndex, { status: 'stored', alreadyStored: true });
			return false;
		});
		if (batch.length === 0) return;
		const outcome = await tryLrsRequest(this.run, {
			method: 'POST',
			path: STATEMENTS_PATH,
			body: requestBody(batch),
			// Every statement carries its id from the first attempt on: a repeat cannot duplicate.
			safeToRepeat: true,
			action: describeBatch(batch),
			itemIndex: batch[0].itemIndex,
			answer: this.run.canRead
				? { schema: storedIdsShape, is: 'the ids of the stored statements' }
				: { schema: undocumentedAnswer, is: 'an answer' },
			allowEmpty: !this.run.canRead,
		});
		if (outcome.ok) {
			const sent = batch.map((entry) => entry.statement.id.toLowerCase());
			// The push endpoint documents no answer body: ids are checked where it sends them.
			const ids = !this.run.canRead && !isIdList(outcome.body) ? sent : (outcome.body as string[]);
			if (ids.length === sent.length && ids.every((id, i) => id.toLowerCase() === sent[i])) {
				this.store(batch, false);
				return;
			}
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
		const single = batch.length === 1;
		if (!this.run.canRead && isRefusedStatement(outcome.status)) {
			// The push endpoint refuses a statement for content or a learner it does not know
			// with a 4xx whose status it does not document: the platform's reason fails the item.
			if (single) return this.fail(batch[0], withHint(outcome.error, outcome.status!));
			return await this.sendHalves(batch);
		}
		switch (outcome.status) {
			case 400:
			case 413:
				if (single) return this.fail(batch[0], withHint(outcome.error, outcome.status));
				return await this.sendHalves(batch);
			case 409:
				if (this.run.canRead && (single || outcome.repeated)) {
					return await this.resolveConflictByReading(batch);
				}
				if (!single) return await this.sendHalves(batch);
				return this.resolveConflict(batch[0], outcome.repeated, outcome.error);
			default:
				for (const entry of batch) this.fail(entry, outcome.error);
				// A store that does not answer, refuses the credentials or fails on its own side
				// would fail every later batch as well, each after its own deadline: stop here.
				if (this.stopAfterFailure || !isStatementsFault(outcome.status)) {
					this.stoppedBecause = outcome.error.message;
				}
		}
	}

	private async sendHalves(batch: PendingStatement[]): Promise<void> {
		const middle = Math.ceil(batch.length / 2);
		await this.send(batch.slice(0, middle));
		await this.send(batch.slice(middle));
	}

	/**
	 * A 409 for one statement from a store that cannot be read (the push endpoint): it holds a
	 * statement under this id, and some stores answer 409 to the same statement again. What this
	 * process saw stored under a derived id decides: the same content is a repeat, other content
	 * was not stored. Otherwise a 409 after an attempt whose answer was lost (or a 5xx) is that
	 * attempt, stored (an id fixed for this statement is no one else's); else a derived id was
	 * recorded before with content that cannot be compared, and any other id is a conflict.
	 */
	private resolveConflict(entry: PendingStatement, repeated: boolean, cause: NodeApiError): void {
		const keyed = entry.idempotencyKey !== undefined;
		const alike = keyed
			? recordedAlike(this.run.clientKey, entry.statement.id, entry.statement)
			: undefined;
		if (alike === false) return this.storeOtherContent(entry);
		if (alike || repeated) return this.store([entry], true);
		if (keyed) return this.store([entry], true, 'unknown');
		this.fail(entry, this.conflictError(entry, cause));
	}

	/**
	 * A 409 from a store that can be read: our own earlier attempt may have been stored (the
	 * answer lost), or the store refuses any repeat of an id. Read each statement back: the same
	 * statement counts as delivered, another one under our id is a conflict, and the ones not
	 * there are sent again.
	 */
	private async resolveConflictByReading(batch: PendingStatement[]): Promise<void> {
		const missing: PendingStatement[] = [];
		for (const entry of batch) {
			const lookup = await findStatement(this.run, entry.statement.id, entry.itemIndex);
			if ('error' in lookup) this.fail(entry, lookup.error);
			else if (!lookup.found) missing.push(entry);
			else if (isSameStatement(entry.statement, lookup.statement)) this.store([entry], true);
			else if (entry.idempotencyKey !== undefined) this.storeOtherContent(entry);
			else this.fail(entry, this.conflictError(entry));
		}
		if (missing.length === 0) return;
		if (missing.length < batch.length) return await this.send(missing);
		// None of ours is there, so the conflict is not explained by an earlier attempt.
		if (missing.length === 1) return this.fail(missing[0], this.conflictError(missing[0]));
		await this.sendHalves(missing);
	}

	private store(batch: PendingStatement[], alreadyStored: boolean, content?: 'unknown'): void {
		for (const entry of batch) {
			const { id } = entry.statement;
			const keyed = entry.idempotencyKey !== undefined;
			// A derived id this process saw stored with this content before: the event is a repeat.
			const repeat = keyed && recordedAlike(this.run.clientKey, id, entry.statement) === true;
			this.outcomes.set(entry.itemIndex, {
				status: 'stored',
				alreadyStored: alreadyStored || repeat,
				content,
			});
			this.storedHere.set(id.toLowerCase(), entry.statement);
			if (keyed && !content) rememberRecorded(this.run.clientKey, id, entry.statement);
		}
	}

	private storeOtherContent(entry: PendingStatement): void {
		this.outcomes.set(entry.itemIndex, { status: 'stored', alreadyStored: true, content: 'other' });
	}

	private fail(entry: PendingStatement, error: NodeApiError | NodeOperationError): void {
		this.outcomes.set(entry.itemIndex, { status: 'failed', error });
	}

	private conflictError(entry: PendingStatement, cause?: NodeApiError): NodeOperationError {
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

/** Whether an answer is a list of statement ids (what xAPI stores answer to a POST). */
function isIdList(body: unknown): body is string[] {
	return Array.isArray(body) && body.every((id) => typeof id === 'string');
}

/**
 * The push endpoint's refusal of a statement it cannot take (unknown content or learner, a
 * malformed or oversized statement): any 4xx that is not about the credentials, the rate, a
 * conflict or a timeout.
 */
function isRefusedStatement(status: number | undefined): boolean {
	return (
		status !== undefined &&
		status >= 400 &&
		status < 500 &&
		![401, 403, 408, 409, 429].includes(status)
	);
}

/** Whether a failure status can be the statements' own fault (not the store's, the network's or the credentials'). */
function isStatementsFault(status: number | undefined): boolean {
	return (
		status !== undefined &&
		status >= 400 &&
		status < 500 &&
		status !== 401 &&
		status !== 403 &&
		status !== 429
	);
}

function withHint(error: NodeApiError, status: number): NodeApiError {
	const hint =
		status === 413
			? 'This one statement is larger than the record store accepts.'
			: 'The record store rejected this statement.';
	error.description = error.description ? `${hint}\n${error.description}` : hint;
	return error;
}

function describeBatch(batch: PendingStatement[]): string {
	if (batch.length === 1) {
		return `Sending the statement of item ${batch[0].itemIndex} (id ${batch[0].statement.id})`;
	}
	const first = batch[0].itemIndex;
	const last = batch[batch.length - 1].itemIndex;
	return `Sending ${batch.length} statements (items ${first} to ${last})`;
}

/**
 * Statements with derived ids (an idempotency key) that this process saw stored, per record
 * store client, so that an event sent again in a later execution is reported as already
 * recorded. The push endpoint cannot be read and its answers do not say whether a statement
 * was new, so this memory is all there is to tell: it is per process (after a restart the
 * store still keeps the event once, but the first repeat reads as recorded), bounded, and only
 * ever changes what an item reports, never whether its statement is sent.
 */

/** Derived ids remembered per client; the oldest are forgotten first. */
const MAX_IDS_PER_CLIENT = 10_000;

/** Clients remembered; the least recently used is forgotten first. */
const MAX_CLIENTS = 100;

const recorded = new Map<string, Map<string, string>>();

/** A short digest of a statement's content, as compared by isSameStatement. */
export function contentDigest(statement: unknown): string {
	return createHash('sha256').update(canonicalStatement(statement)).digest('hex').slice(0, 32);
}

/**
 * Whether this process saw a statement with this id stored for this client with the same content
 * (true) or with other content (false); undefined when it saw none.
 */
export function recordedAlike(
	clientKey: string,
	id: string,
	statement: unknown,
): boolean | undefined {
	const digest = recorded.get(clientKey)?.get(id.toLowerCase());
	return digest === undefined ? undefined : digest === contentDigest(statement);
}

/** Remembers a statement the record store accepted. */
export function rememberRecorded(clientKey: string, id: string, statement: unknown): void {
	let ids = recorded.get(clientKey);
	if (ids) recorded.delete(clientKey);
	else ids = new Map();
	recorded.set(clientKey, ids);
	if (recorded.size > MAX_CLIENTS) recorded.delete(recorded.keys().next().value as string);
	const key = id.toLowerCase();
	ids.delete(key);
	ids.set(key, contentDigest(statement));
	if (ids.size > MAX_IDS_PER_CLIENT) ids.delete(ids.keys().next().value as string);
}
