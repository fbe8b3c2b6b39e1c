/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';

import { XAPI_VERSION_HEADER } from './lrs';
import { lrsEntryPoint } from './paths';

export { startLrs } from './lrs';

export function lrsInstalled(): boolean {
	return fs.existsSync(lrsEntryPoint);
}

export interface StoredStatement {
	id: string;
	object?: { id?: string };
	[key: string]: unknown;
}

const HEADERS = { ...XAPI_VERSION_HEADER, Accept: 'application/json' };

/**
 * Every statement in the store, read page by page from `storeEndpoint` (bypassing any proxy).
 * This store's cursor paging can repeat statements stored in one batch, so pages are merged by id.
 */
export async function listAllStatements(
	storeEndpoint: string,
	authorization: string,
): Promise<Map<string, StoredStatement>> {
	const byId = new Map<string, StoredStatement>();
	let url: string | undefined = `${storeEndpoint}/statements?limit=1000`;
	for (let page = 0; url && page < 10_000; page++) {
		const response = await fetch(url, { headers: { ...HEADERS, Authorization: authorization } });
		if (!response.ok)
			throw new Error(`Listing statements: HTTP ${response.status} ${await response.text()}`);
		const body = (await response.json()) as { statements: StoredStatement[]; more?: string };
		for (const statement of body.statements) byId.set(statement.id, statement);
		url = body.more ? new URL(body.more, storeEndpoint).toString() : undefined;
	}
	return byId;
}

/** One statement by id, straight from the store: null when it is not there. */
export async function getStatement(
	storeEndpoint: string,
	authorization: string,
	id: string,
): Promise<StoredStatement | null> {
	const url = `${storeEndpoint}/statements?statementId=${encodeURIComponent(id)}`;
	const response = await fetch(url, { headers: { ...HEADERS, Authorization: authorization } });
	if (response.status === 404) return null;
	if (!response.ok)
		throw new Error(`Reading statement ${id}: HTTP ${response.status} ${await response.text()}`);
	return (await response.json()) as StoredStatement;
}
