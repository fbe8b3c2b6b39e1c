import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { Deadline } from '../../shared/pacing/time';
import type { PagingLimits } from '../../shared/pacing/paging';
import {
	DEFAULT_PAGING_LIMITS,
	LinkGuard,
	PageGuard,
	PagingError,
} from '../../shared/pacing/paging';
import type { LrsRun } from './index';
import { lrsRequest, resolveMoreLink, tryLrsRequest } from './index';

export const STATEMENTS_PATH = '/statements';

// Answers as checked (xAPI Communication 2.1): only what the node relies on is required.
export const storedStatementShape = z.object({ id: z.string().min(1, 'is missing') }).passthrough();

/** GET /statements without an id: a StatementResult. */
export const statementResultShape = z
	.object({
		statements: z.array(z.record(z.string(), z.unknown())),
		more: z.string().optional(),
	})
	.passthrough();

/** POST /statements: the ids of the statements stored, in order. */
export const storedIdsShape = z.array(z.string().min(1, 'is empty'));

export type StatementResult = z.infer<typeof statementResultShape>;

/** Reads one statement by id; a voided statement is only found with `voided`. */
export async function getStatement(
	run: LrsRun,
	statementId: string,
	{ voided = false, itemIndex }: { voided?: boolean; itemIndex?: number },
): Promise<IDataObject> {
	const statement = (await lrsRequest(run, {
		method: 'GET',
		path: STATEMENTS_PATH,
		qs: voided ? { voidedStatementId: statementId } : { statementId },
		safeToRepeat: true,
		namesRecord: true,
		action: `Getting ${voided ? 'voided statement' : 'statement'} ${statementId}`,
		itemIndex,
		answer: { schema: storedStatementShape, is: 'a statement' },
	})) as IDataObject;
	assertSameId(run, statementId, statement, itemIndex);
	return statement;
}

/** A store that answers with another statement than the one asked for is not believed. */
function assertSameId(
	run: LrsRun,
	asked: string,
	statement: IDataObject,
	itemIndex?: number,
): void {
	if (String(statement.id).toLowerCase() === asked.toLowerCase()) return;
	throw new NodeApiError(
		run.fns.getNode(),
		{ message: 'unexpected answer' },
		{
			itemIndex,
			message: `Getting statement ${asked} failed (unexpected answer: the record store sent statement ${String(statement.id)})`,
		},
	);
}

export type Lookup =
	| { found: true; statement: IDataObject }
	| { found: false }
	| { error: NodeApiError };

/** Reads a statement that may not exist: a 404 is an answer here, not a failure. */
export async function findStatement(
	run: LrsRun,
	statementId: string,
	itemIndex?: number,
): Promise<Lookup> {
	const outcome = await tryLrsRequest(run, {
		method: 'GET',
		path: STATEMENTS_PATH,
		qs: { statementId, format: 'exact' },
		safeToRepeat: true,
		namesRecord: true,
		action: `Checking the stored statement ${statementId}`,
		itemIndex,
		answer: { schema: storedStatementShape, is: 'a statement' },
	});
	if (outcome.ok) {
		const statement = outcome.body as IDataObject;
		try {
			assertSameId(run, statementId, statement, itemIndex);
		} catch (error) {
			return { error: error as NodeApiError };
		}
		return { found: true, statement };
	}
	if (outcome.status === 404) return { found: false };
	return { error: outcome.error };
}

export interface StatementWalk {
	qs: IDataObject;
	action: string;
	itemIndex?: number;
	deadline: Deadline;
	limits?: PagingLimits;
}

export interface PageAnswer {
	headers: Record<string, unknown>;
}

/** Guarded so a store cannot keep the walk going forever or emit a statement twice. */
export async function forEachStatementPage(
	run: LrsRun,
	{ qs, action, itemIndex, deadline, limits = DEFAULT_PAGING_LIMITS }: StatementWalk,
	visit: (statements: IDataObject[], answer: PageAnswer) => boolean | Promise<boolean>,
): Promise<void> {
	const { endpoint } = run;
	const pages = new PageGuard(action, limits);
	const links = new LinkGuard(action);
	let next: { path: string; qs: IDataObject } | { url: string } = { path: STATEMENTS_PATH, qs };
	for (;;) {
		const outcome = await tryLrsRequest(run, {
			method: 'GET',
			...next,
			safeToRepeat: true,
			action,
			itemIndex,
			deadline,
			answer: { schema: statementResultShape, is: 'a StatementResult' },
		});
		if (!outcome.ok) throw outcome.error;
		const page = outcome.body as StatementResult;
		const statements = page.statements as IDataObject[];
		const more = page.more?.trim() ?? '';
		let fresh: boolean[];
		try {
			pages.read(outcome.bytes);
			fresh = pages.admit(statements.map((statement) => idOf(statement)));
			if (more && statements.length > 0) {
				const url = resolveMoreLink(endpoint, more);
				if (url) links.follow(url);
			}
		} catch (error) {
			throw new NodeOperationError(run.fns.getNode(), error as Error, {
				itemIndex,
				description: error instanceof PagingError ? error.hint : undefined,
			});
		}
		const visited = await visit(
			statements.filter((_, i) => fresh[i]),
			{ headers: outcome.headers },
		);
		if (visited === false) return;
		if (!more || statements.length === 0) return;
		const url = resolveMoreLink(endpoint, more);
		if (!url) {
			throw new NodeOperationError(
				run.fns.getNode(),
				`The record store sent a "more" link that is not on its own host: ${run.redactor.text(more)}`,
				{
					itemIndex,
					description: 'It was not followed, so that the credentials stay with the record store.',
				},
			);
		}
		next = { url };
	}
}

function idOf(statement: IDataObject): string | undefined {
	return typeof statement.id === 'string' ? statement.id.toLowerCase() : undefined;
}
