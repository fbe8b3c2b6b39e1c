import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { lrsDeadline } from '../XApi/transport';
import { forEachStatementPage } from '../XApi/transport/statements';
import type { Cursor } from './cursor';
import {
	emptyCursor,
	hasSeen,
	MAX_REMEMBERED_IDS,
	OVERLAP_MS,
	prune,
	remember,
	sinceFor,
	storedMsOf,
} from './cursor';

/** Statements asked for per page. */
const PAGE_SIZE = 100;

/** At most this many statements per poll; the rest come with the next poll, in order. */
export const MAX_STATEMENTS_PER_POLL = 1_000;

/** A poll reads for at most this long (and within the time n8n gives a poll). */
const POLL_DEADLINE_MS = 2 * 60_000;

function pollDeadline(context: IPollFunctions) {
	const budget =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() * 0.8 : Infinity;
	return lrsDeadline.call(context, Math.min(POLL_DEADLINE_MS, budget));
}

/**
 * Where a newly activated trigger starts: just after the newest matching statement, so the
 * first poll emits nothing and history is never replayed. Reading the newest statement instead
 * of taking the local clock keeps n8n's and the store's clocks out of it. The statements within
 * the overlap before it are remembered too, so that none of them counts as new later.
 */
export async function startingCursor(
	this: IPollFunctions,
	qs: IDataObject,
	key: string,
): Promise<Cursor> {
	const cursor = emptyCursor(key);
	let newestMs: number | undefined;
	let read = 0;
	await forEachStatementPage.call(
		this,
		{
			qs: { ...qs, limit: PAGE_SIZE },
			action: 'Reading the newest statements',
			deadline: pollDeadline(this),
		},
		(page) => {
			for (const statement of page) {
				const storedMs = storedMsOf(statement);
				newestMs ??= storedMs;
				if (storedMs !== undefined && newestMs !== undefined && storedMs < newestMs - OVERLAP_MS) {
					return false;
				}
				remember(cursor, statement);
				if (++read >= MAX_REMEMBERED_IDS) return false;
			}
			return newestMs !== undefined;
		},
	);
	return prune(cursor);
}

/** The statements stored after the cursor, oldest first, each once; the cursor moves past them. */
export async function readNewStatements(
	this: IPollFunctions,
	qs: IDataObject,
	cursor: Cursor,
): Promise<IDataObject[]> {
	const since = sinceFor(cursor);
	const found: IDataObject[] = [];
	const startedAt = Date.now();
	// Stop reading well inside the time n8n gives a poll, and leave the rest to the next one.
	const budgetMs =
		typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() / 2 : Infinity;
	await forEachStatementPage.call(
		this,
		{
			qs: { ...qs, ascending: true, limit: PAGE_SIZE, ...(since ? { since } : {}) },
			action: 'Reading new statements',
			deadline: pollDeadline(this),
		},
		(page) => {
			for (const statement of page) {
				if (hasSeen(cursor, statement)) continue;
				remember(cursor, statement);
				found.push(statement);
				if (found.length >= MAX_STATEMENTS_PER_POLL) return false;
			}
			return Date.now() - startedAt < budgetMs;
		},
	);
	return found;
}

/** The most recent matching statement, for a manual test of the trigger. */
export async function latestStatement(
	this: IPollFunctions,
	qs: IDataObject,
): Promise<IDataObject | undefined> {
	let latest: IDataObject | undefined;
	await forEachStatementPage.call(
		this,
		{
			qs: { ...qs, limit: 1 },
			action: 'Reading the latest statement',
			deadline: pollDeadline(this),
		},
		(page) => {
			latest = page[0];
			return false;
		},
	);
	return latest;
}
