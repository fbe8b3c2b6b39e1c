import { createHash } from 'crypto';

import { canonicalStatement } from './sameStatement';

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
