import { createHash } from 'crypto';

import { type IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOutcome, PreparedItem } from '../../shared/items/operation';
import { isPlainObject } from '../../shared/form/input';
import type { Statement } from '../validation';
import { type LrsRun, tryLrsRequest } from './index';
import { readStatement, STATEMENTS_PATH, storedIdsShape } from './statements';

export type StatementWithId = Statement & { id: string };

interface PendingStatement {
	itemIndex: number;
	statement: StatementWithId;
	idempotencyKey?: string;
}

/** Never changes (published in the README): a new namespace would store resent events twice. */
export const STATEMENT_ID_NAMESPACE = '1c00e23b-464b-4b02-b45d-d56d4ad34dd3';

/** RFC 9562 section 5.5 (RFC 4122 section 4.3); the same as Python's `uuid.uuid5`. */
export function uuidV5(name: string, namespace: string): string {
	const bytes = createHash('sha1')
		.update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
		.update(Buffer.from(name, 'utf8'))
		.digest()
		.subarray(0, 16);
	bytes[6] = (bytes[6] & 0x0f) | 0x50;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	return bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}

/** An expression's stray outer space is not another event; case is kept ("Order-1" ≠ "order-1"). */
export function statementIdFor(idempotencyKey: string): string {
	return uuidV5(idempotencyKey.trim(), STATEMENT_ID_NAMESPACE);
}

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
	items: Array<PreparedItem<{ statement: StatementWithId; idempotencyKey?: string }>>,
	options: { batchSize?: number; stopAfterFailure: boolean },
	describe: (statement: StatementWithId) => IDataObject = () => ({}),
): Promise<Map<number, ItemOutcome>> {
	const pending = items.map(({ itemIndex, input }) => ({
		itemIndex,
		statement: run.canRead ? input.statement : asPushed(input.statement),
		idempotencyKey: input.idempotencyKey,
	}));
	// The push endpoint documents one statement per request, no arrays.
	const batchSize = options.batchSize ?? (run.canRead ? DEFAULT_BATCH_SIZE : 1);
	const delivery = new Delivery(run, options.stopAfterFailure, describe);
	for (const batch of batchesOf(pending, batchSize)) await delivery.send(batch);
	const notSent: ItemOutcome = { status: 'notSent' };
	return new Map(
		pending.map(({ itemIndex }) => [itemIndex, delivery.outcomes.get(itemIndex) ?? notSent]),
	);
}

/** The actor's `objectType` given, as the push endpoint's page shows; the same statement for xAPI. */
function asPushed(statement: StatementWithId): StatementWithId {
	const { actor } = statement;
	if (!isPlainObject(actor) || actor.objectType !== undefined || Array.isArray(actor.member))
		return statement;
	return { ...statement, actor: { ...actor, objectType: 'Agent' } };
}

/** Consecutive batches; a repeated id starts a new batch, since stores reject such a batch. */
function batchesOf(pending: PendingStatement[], batchSize: number): PendingStatement[][] {
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
	readonly outcomes = new Map<number, ItemOutcome>();

	/** By lower-case id: a repeat within the run is not sent again. */
	private readonly storedHere = new Map<string, Statement>();

	private stoppedBecause: string | undefined;

	constructor(
		private readonly run: LrsRun,
		private readonly stopAfterFailure: boolean,
		private readonly describe: (statement: StatementWithId) => IDataObject,
	) {}

	async send(whole: PendingStatement[]): Promise<void> {
		if (this.stoppedBecause !== undefined) {
			for (const entry of whole) {
				this.outcomes.set(entry.itemIndex, { status: 'notSent', reason: this.stoppedBecause });
			}
			return;
		}
		const batch = whole.filter((entry) => {
			const earlier = this.storedHere.get(entry.statement.id.toLowerCase());
			if (!earlier || !isSameStatement(entry.statement, earlier)) return true;
			this.done(entry, true);
			return false;
		});
		if (batch.length === 0) return;
		const { canRead } = this.run;
		const outcome = await tryLrsRequest(this.run, {
			method: 'POST',
			path: STATEMENTS_PATH,
			body: batch.length === 1 ? batch[0].statement : batch.map((entry) => entry.statement),
			// Every statement carries its id from the first attempt on: a repeat cannot duplicate.
			safeToRepeat: true,
			action: describeBatch(batch),
			itemIndex: batch[0].itemIndex,
			answer: canRead
				? { schema: storedIdsShape, is: 'the ids of the stored statements' }
				: { schema: z.unknown(), is: 'an answer' },
			allowEmpty: !canRead,
		});
		if (outcome.ok) {
			const sent = batch.map((entry) => entry.statement.id.toLowerCase());
			// The push endpoint documents no answer body: ids are checked where it sends them.
			const ids = !canRead && !isIdList(outcome.body) ? sent : (outcome.body as string[]);
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
			return this.resolveConflict(batch[0], outcome.repeated, error);
		}
		for (const entry of batch) this.fail(entry, error);
		// Auth, server or network failures would fail every later batch too, each after its deadline.
		if (this.stopAfterFailure || !isStatementsFault(status)) this.stoppedBecause = error.message;
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
		if (alike === false) return this.done(entry, true, 'other');
		if (alike || repeated) return this.store([entry], true);
		if (keyed) return this.store([entry], true, 'unknown');
		this.fail(entry, this.conflictError(entry, cause));
	}

	/** 409 from a readable store: an earlier attempt may be stored, so each statement is read back. */
	private async resolveConflictByReading(batch: PendingStatement[]): Promise<void> {
		const missing: PendingStatement[] = [];
		for (const entry of batch) {
			const { id } = entry.statement;
			const action = `Checking the stored statement ${id}`;
			const qs = { statementId: id, format: 'exact' };
			const read = await readStatement(this.run, id, qs, action, entry.itemIndex);
			if (!read.ok && read.status === 404) missing.push(entry);
			else if (!read.ok) this.fail(entry, read.error);
			else if (isSameStatement(entry.statement, read.statement)) this.store([entry], true);
			else if (entry.idempotencyKey !== undefined) this.done(entry, true, 'other');
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
			this.done(entry, alreadyStored || repeat, content);
			this.storedHere.set(id.toLowerCase(), entry.statement);
			if (keyed && !content) rememberRecorded(this.run.clientKey, id, entry.statement);
		}
	}

	/** `other`: other content already under this derived id (not stored, not failed); `unknown`: unreadable. */
	private done(
		{ itemIndex, statement, idempotencyKey }: PendingStatement,
		alreadyStored: boolean,
		content?: 'other' | 'unknown',
	): void {
		const recorded =
			content === 'other'
				? 'already recorded with other content'
				: alreadyStored
					? 'already recorded'
					: 'recorded';
		this.outcomes.set(itemIndex, {
			status: 'done',
			json: {
				statementId: statement.id,
				...(idempotencyKey === undefined ? {} : { idempotencyKey }),
				...this.describe(statement),
				alreadyStored,
				recorded,
				...(content ? { note: CONTENT_NOTES[content](statement.id) } : {}),
				statement: statement as unknown as IDataObject,
			},
		});
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

/** A 4xx that can be the statements' own fault, not the store's, network's or credentials'. */
function isStatementsFault(status: number | undefined): boolean {
	return status !== undefined && status >= 400 && status < 500 && ![401, 403, 429].includes(status);
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

/** The timestamp is kept: a statement sent without one is not the same as one sent with one. */
function contentDigest(statement: Statement): string {
	const text = canonical(normalizeStatement(statement));
	return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** true: seen stored with the same content; false: with other content; undefined: never seen. */
function recordedAlike(clientKey: string, id: string, statement: Statement): boolean | undefined {
	const digest = recorded.get(clientKey)?.get(id.toLowerCase());
	return digest === undefined ? undefined : digest === contentDigest(statement);
}

function rememberRecorded(clientKey: string, id: string, statement: Statement): void {
	const ids = recorded.get(clientKey) ?? new Map<string, string>();
	setNewest(recorded, clientKey, ids, MAX_CLIENTS);
	setNewest(ids, id.toLowerCase(), contentDigest(statement), MAX_IDS_PER_CLIENT);
}

function setNewest<V>(map: Map<string, V>, key: string, value: V, max: number): void {
	map.delete(key);
	map.set(key, value);
	if (map.size > max) map.delete(map.keys().next().value as string);
}

// xAPI-Data 2.3.1 comparison: what a store may assign or rewrite, `display`, definitions, timestamp
// form, member order, e-mail domain and UUID case, durations beyond 0.01 s are ignored. IRIs compare
// as written (no RFC 3987 normalization), extensions as JSON values.
type JsonObject = Record<string, unknown>;

export function isSameStatement(sent: unknown, stored: unknown): boolean {
	if (!isPlainObject(sent) || !isPlainObject(stored)) return false;
	const mine = normalizeStatement(sent);
	const theirs = normalizeStatement(stored);
	// A store fills in the timestamp when none was sent.
	if (mine.timestamp === undefined) delete theirs.timestamp;
	return canonical(mine) === canonical(theirs);
}

function normalizeStatement(statement: JsonObject): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(statement)) {
		if (['stored', 'authority', 'version', 'attachments'].includes(key)) continue;
		if (key === 'id' && typeof value === 'string') out.id = value.toLowerCase();
		else if (key === 'actor') out.actor = normalizeActor(value);
		else if (key === 'verb') out.verb = isPlainObject(value) ? { id: value.id } : value;
		else if (key === 'object') out.object = normalizeObject(value);
		else if (key === 'result') out.result = normalizeResult(value);
		else if (key === 'context') out.context = normalizeContext(value);
		else if (key === 'timestamp') out.timestamp = instant(value);
		else if (key === 'objectType' && value === 'Activity') continue;
		else out[key] = value;
	}
	return out;
}

function normalizeActor(actor: unknown): unknown {
	if (!isPlainObject(actor)) return actor;
	const out: JsonObject = { ...actor };
	if (out.objectType === 'Agent') delete out.objectType;
	if (typeof out.mbox === 'string') out.mbox = lowerCaseDomain(out.mbox);
	if (Array.isArray(out.member)) {
		out.member = out.member
			.map(normalizeActor)
			.sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1));
	}
	return out;
}

function normalizeObject(object: unknown): unknown {
	if (!isPlainObject(object)) return object;
	switch (object.objectType) {
		case undefined:
		case 'Activity':
			return { id: object.id };
		case 'StatementRef':
			return {
				objectType: 'StatementRef',
				id: typeof object.id === 'string' ? object.id.toLowerCase() : object.id,
			};
		case 'SubStatement':
			return normalizeStatement(object);
		default:
			return { ...(normalizeActor(object) as JsonObject), objectType: object.objectType };
	}
}

function normalizeResult(result: unknown): unknown {
	if (!isPlainObject(result) || typeof result.duration !== 'string') return result;
	return { ...result, duration: truncateDuration(result.duration) };
}

function normalizeContext(context: unknown): unknown {
	if (!isPlainObject(context)) return context;
	const out: JsonObject = { ...context };
	if (typeof out.registration === 'string') out.registration = out.registration.toLowerCase();
	if (out.instructor !== undefined) out.instructor = normalizeActor(out.instructor);
	if (out.team !== undefined) out.team = normalizeActor(out.team);
	if (isPlainObject(out.statement)) out.statement = normalizeObject(out.statement);
	if (isPlainObject(out.contextActivities)) {
		// A single activity and a list of one are the same (xAPI-Data 2.4.6.2).
		const lists = Object.entries(out.contextActivities).map(([kind, value]) => [
			kind,
			(Array.isArray(value) ? value : [value]).map(normalizeObject),
		]);
		out.contextActivities = Object.fromEntries(lists) as JsonObject;
	}
	return out;
}

/** Stores keep 0.01 s; the platform's documents write `P16559.14S` without the "T". */
function truncateDuration(duration: string): string {
	const withT = duration.replace(/^P(?=\d+(?:[.,]\d+)?S$)/, 'PT');
	return withT.replace(/(\d+)\.(\d+)S$/, (_match, whole: string, fraction: string) => {
		const kept = fraction.slice(0, 2).replace(/0+$/, '');
		return kept ? `${whole}.${kept}S` : `${whole}S`;
	});
}

function instant(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? value : ms;
}

function lowerCaseDomain(mbox: string): string {
	const at = mbox.lastIndexOf('@');
	return at < 0 ? mbox : `${mbox.slice(0, at)}${mbox.slice(at).toLowerCase()}`;
}

function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((entry) => canonical(entry)).join(',')}]`;
	if (isPlainObject(value)) {
		const keys = Object.keys(value)
			.filter((key) => value[key] !== undefined)
			.sort();
		return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
