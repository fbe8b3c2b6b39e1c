import { contentDigest } from './sameStatement';
import type { StatementWithId } from './statementIds';

// The push endpoint never says whether a statement was new: derived ids seen stored are remembered
// per process and client, bounded, and change only what an item reports, never what is sent.
const MAX_IDS_PER_CLIENT = 10_000;

const MAX_CLIENTS = 100;

/** Client key → lower-case id → content digest; the least recently stored go first. */
const recorded = new Map<string, Map<string, string>>();

/** true: seen stored with the same content; false: with other content; undefined: never seen. */
export function recordedAlike(clientKey: string, statement: StatementWithId): boolean | undefined {
	const digest = recorded.get(clientKey)?.get(statement.id.toLowerCase());
	return digest === undefined ? undefined : digest === contentDigest(statement);
}

export function rememberRecorded(clientKey: string, statement: StatementWithId): void {
	const ids = recorded.get(clientKey) ?? new Map<string, string>();
	setNewest(recorded, clientKey, ids, MAX_CLIENTS);
	setNewest(ids, statement.id.toLowerCase(), contentDigest(statement), MAX_IDS_PER_CLIENT);
}

function setNewest<V>(map: Map<string, V>, key: string, value: V, max: number): void {
	map.delete(key);
	map.set(key, value);
	if (map.size > max) map.delete(map.keys().next().value as string);
}
