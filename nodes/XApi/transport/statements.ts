import type { IDataObject, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { LrsFunctions } from './index';
import { endpointOf, lrsCredentials, lrsRequest, resolveMoreLink, tryLrsRequest } from './index';

export const STATEMENTS_PATH = '/statements';

/** A GET /statements answer without statementId (xAPI-Data 2.5). */
interface StatementResult {
	statements?: IDataObject[];
	more?: string;
}

/** Reads one statement by id; a voided statement is only found with `voided`. */
export async function getStatement(
	this: LrsFunctions,
	statementId: string,
	{ voided = false, itemIndex }: { voided?: boolean; itemIndex?: number },
): Promise<IDataObject> {
	return (await lrsRequest.call(this, {
		method: 'GET',
		path: STATEMENTS_PATH,
		qs: voided ? { voidedStatementId: statementId } : { statementId },
		safeToRepeat: true,
		action: `Getting ${voided ? 'voided statement' : 'statement'} ${statementId}`,
		itemIndex,
	})) as IDataObject;
}

export type Lookup =
	| { found: true; statement: IDataObject }
	| { found: false }
	| { error: NodeApiError };

/** Reads a statement that may not exist: a 404 is an answer here, not a failure. */
export async function findStatement(
	this: LrsFunctions,
	statementId: string,
	itemIndex?: number,
): Promise<Lookup> {
	const outcome = await tryLrsRequest.call(this, {
		method: 'GET',
		path: STATEMENTS_PATH,
		qs: { statementId, format: 'exact' },
		safeToRepeat: true,
		action: `Checking the stored statement ${statementId}`,
		itemIndex,
	});
	if (outcome.ok) return { found: true, statement: outcome.body as IDataObject };
	if (outcome.status === 404) return { found: false };
	return { error: outcome.error };
}

/**
 * Walks a statement query page by page, following `more` links, handing each page to `visit`,
 * which returns false to stop. Only one page is held at a time.
 */
export async function forEachStatementPage(
	this: LrsFunctions,
	{ qs, action, itemIndex }: { qs: IDataObject; action: string; itemIndex?: number },
	visit: (statements: IDataObject[]) => boolean | Promise<boolean>,
): Promise<void> {
	const endpoint = endpointOf.call(this, await lrsCredentials.call(this));
	const followed = new Set<string>();
	let next: { path: string; qs: IDataObject } | { url: string } = { path: STATEMENTS_PATH, qs };
	for (;;) {
		const page = (await lrsRequest.call(this, {
			method: 'GET',
			...next,
			safeToRepeat: true,
			action,
			itemIndex,
		})) as StatementResult;
		const statements = Array.isArray(page?.statements) ? page.statements : [];
		if ((await visit(statements)) === false) return;
		const more = typeof page?.more === 'string' ? page.more.trim() : '';
		if (!more) return;
		const url = resolveMoreLink(endpoint, more);
		if (!url) {
			throw new NodeOperationError(
				this.getNode(),
				`The record store sent a "more" link that is not on its own host: ${more}`,
				{
					itemIndex,
					description: 'It was not followed, so that the credentials stay with the record store.',
				},
			);
		}
		// A store that answers with the same link again would otherwise be read forever.
		if (followed.has(url) || statements.length === 0) return;
		followed.add(url);
		next = { url };
	}
}
