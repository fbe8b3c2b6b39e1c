import { createHash } from 'crypto';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { Statement } from '../validation';
import type { LrsRun } from './index';
import { tryLrsRequest } from './index';
import { canonicalStatement, isSameStatement } from './sameStatement';
import { findStatement, STATEMENTS_PATH, storedIdsShape } from './statements';

/** One item's statement, its id fixed so that any attempt can be repeated. */
export interface PendingStatement {
	itemIndex: number;
	statement: Statement & { id: string };
	/** Set when the id is derived from this key: the same event always gets it. */
	idempotencyKey?: string;
}

export type DeliveryOutcome =
	| {
			status: 'stored';
			alreadyStored: boolean;
			/** `other`: other content already under this derived id (not stored, not failed); `unknown`: unreadable. */
			content?: 'other' | 'unknown';
	  }
	| { status: 'failed'; error: NodeApiError | NodeOperationError }
	| { status: 'notSent'; reason?: string };

/** The push endpoint documents no answer body: anything JSON, or nothing. */
const undocumentedAnswer = z.unknown();

export interface DeliveryOptions {
	batchSize: number;
	/** After a failure that is not one statement's fault (auth, server, network), send nothing more. */
	stopAfterFailure: boolean;
}

/** A store takes or rejects a batch whole: a 400, 409 or 413 halves it until the culprits stand alone. */
export async function deliverStatements(
	run: LrsRun,
	pending: PendingStatement[],
	options: DeliveryOptions,
): Promise<Map<number, DeliveryOutcome>> {
	const delivery = new Delivery(run, options.stopAfterFailure);
	for (const batch of batchesOf(pending, options.batchSize)) await delivery.send(batch);
	return delivery.outcomes;
}

/** The actor's `objectType` given, as the push endpoint's page shows; the same statement for xAPI. */
export function asPushed<S extends Statement>(statement: S): S {
	const actor = statement.actor as unknown as Record<string, unknown> | undefined;
	if (!actor || typeof actor !== 'object' || actor.objectType !== undefined) return statement;
	if (Array.isArray(actor.member)) return statement;
	return { ...statement, actor: { ...actor, objectType: 'Agent' } };
}

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

	/** By lower-case id: a repeat within the run is not sent again. */
	private readonly storedHere = new Map<string, Statement>();

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
		// An event delivered twice in this run: stored already, not sent.
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
			// The push endpoint refuses unknown content or learners with undocumented 4xx statuses.
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
				// Auth, server or network failures would fail every later batch too, each after its deadline.
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

	/** 409 from the unreadable push endpoint: remembered content decides, else a retried attempt is ours. */
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

	/** 409 from a readable store: an earlier attempt may be stored, so each statement is read back. */
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

function isIdList(body: unknown): body is string[] {
	return Array.isArray(body) && body.every((id) => typeof id === 'string');
}

/** The push endpoint's refusal of the statement itself (unknown content or learner, malformed, too large). */
function isRefusedStatement(status: number | undefined): boolean {
	return (
		status !== undefined &&
		status >= 400 &&
		status < 500 &&
		![401, 403, 408, 409, 429].includes(status)
	);
}

/** A 4xx that can be the statements' own fault, not the store's, network's or credentials'. */
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

// The push endpoint never says whether a statement was new: derived ids seen stored are remembered
// per process and client, bounded, and change only what an item reports, never what is sent.
const MAX_IDS_PER_CLIENT = 10_000;

const MAX_CLIENTS = 100;

const recorded = new Map<string, Map<string, string>>();

export function contentDigest(statement: unknown): string {
	return createHash('sha256').update(canonicalStatement(statement)).digest('hex').slice(0, 32);
}

/** true: seen stored with the same content; false: with other content; undefined: never seen. */
export function recordedAlike(
	clientKey: string,
	id: string,
	statement: unknown,
): boolean | undefined {
	const digest = recorded.get(clientKey)?.get(id.toLowerCase());
	return digest === undefined ? undefined : digest === contentDigest(statement);
}

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
