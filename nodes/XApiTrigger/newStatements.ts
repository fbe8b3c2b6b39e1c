import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { Deadline } from '../shared/pacing/time';
import { excerpt } from '../shared/request/body';
import type { LrsRun } from '../XApi/transport';
import { forEachStatementPage, STATEMENTS_PER_PAGE } from '../XApi/transport/statementPages';
import {
	type Cursor,
	emptyCursor,
	holdBack,
	idOf,
	MAX_REMEMBERED_IDS,
	msOf,
	OVERLAP_MS,
	remember,
	storedMsOf,
} from './cursor';

export type TriggerRun = LrsRun & { readonly fns: IPollFunctions };

/** The rest come with the next poll, in order. */
const MAX_STATEMENTS_PER_POLL = 1_000;

const POLL_DEADLINE_MS = 2 * 60_000;

/** Older n8n versions give a poll no budget. */
const pollBudgetMs = ({ fns }: TriggerRun) => fns.getPollBudgetMs?.() ?? Infinity;

/** Shared by the per-verb queries (an xAPI statements query filters by one verb). */
function pollDeadline(run: TriggerRun): Deadline {
	return run.deadline(Math.min(POLL_DEADLINE_MS, pollBudgetMs(run) * 0.8));
}

/** Each query's pages in turn under one deadline, every answer read for the store's clock. */
async function readQueries(
	run: TriggerRun,
	queries: IDataObject[],
	{ qs, action, clock }: { qs: IDataObject; action: string; clock?: StoreClock },
	readerOf: (index: number) => (page: IDataObject[]) => boolean,
): Promise<void> {
	const deadline = pollDeadline(run);
	for (const [index, query] of queries.entries()) {
		const read = readerOf(index);
		await forEachStatementPage(
			run,
			{ qs: { ...query, ...qs }, action, deadline },
			(page, headers) => {
				clock?.read(headers);
				return read(page);
			},
		);
	}
}

/** After the newest matching statement, read rather than taken from a clock: history is never replayed. */
export async function startingCursor(
	run: TriggerRun,
	queries: IDataObject[],
	key: string,
): Promise<Cursor> {
	const cursor = emptyCursor(key);
	const clock = new StoreClock();
	const ahead: IDataObject[] = [];
	const qs = { limit: STATEMENTS_PER_PAGE };
	await readQueries(run, queries, { qs, action: 'Reading the newest statements', clock }, () => {
		let newestMs: number | undefined;
		let read = 0;
		return (page) => {
			for (const statement of page) {
				const storedMs = storedMsOf(statement);
				// One stored ahead of the clock is remembered, so it never counts as new; history
				// starts at the newest one before it.
				const isAhead = storedMs !== undefined && storedMs > clock.nowMs();
				if (isAhead) ahead.push(statement);
				else if (storedMs !== undefined) {
					newestMs ??= storedMs;
					if (storedMs < newestMs - OVERLAP_MS) return false;
				}
				remember(cursor, statement, clock.nowMs());
				if (++read >= MAX_REMEMBERED_IDS) return false;
			}
			return newestMs !== undefined;
		};
	});
	holdBack(cursor, clock.nowMs());
	warnAhead(run, ahead, clock);
	return cursor;
}

/** Emits nothing newer than every query has read, so the cursor never passes an unread statement. */
export async function readNewStatements(
	run: TriggerRun,
	queries: IDataObject[],
	cursor: Cursor,
): Promise<IDataObject[]> {
	const sinceMs = cursor.storedMs === undefined ? -Infinity : cursor.storedMs - OVERLAP_MS;
	const since = cursor.storedMs === undefined ? {} : { since: new Date(sinceMs).toISOString() };
	const startedAt = Date.now();
	// Stop reading well inside the time n8n gives a poll, and leave the rest to the next one.
	const budgetMs = pollBudgetMs(run) / 2;
	const clock = new StoreClock();
	const found: Array<{ statement: IDataObject; storedMs: number }> = [];
	// Where a cap or the time budget stopped a query: every query is complete up to there.
	let horizonMs = Infinity;
	const qs = { ascending: true, limit: STATEMENTS_PER_PAGE, ...since };
	await readQueries(run, queries, { qs, action: 'Reading new statements', clock }, (index) => {
		// Each query gets its share of the time, so that the last one too reads at least a page.
		const readUntilMs = (budgetMs * (index + 1)) / queries.length;
		const firstOfQuery = found.length;
		const full = () => found.length - firstOfQuery >= MAX_STATEMENTS_PER_POLL;
		// A statement without `stored` (which stores must set) keeps its place after the one before it.
		let lastMs = sinceMs;
		return (page) => {
			for (const statement of page) {
				lastMs = Math.max(lastMs, storedMsOf(statement) ?? lastMs);
				const id = idOf(statement);
				if (id === undefined || !cursor.recent.has(id)) found.push({ statement, storedMs: lastMs });
				if (full()) break;
			}
			const stop = full() || (page.length > 0 && Date.now() - startedAt >= readUntilMs);
			if (stop) horizonMs = Math.min(horizonMs, lastMs);
			return !stop;
		};
	});
	const merged = found.filter((entry) => entry.storedMs <= horizonMs);
	// A stable sort: statements stored at the same time keep the order their query gave them.
	if (queries.length > 1) merged.sort((a, b) => a.storedMs - b.storedMs);
	const emitted: IDataObject[] = [];
	const ids = new Set<string>();
	for (const { statement } of merged) {
		const id = idOf(statement);
		if (id !== undefined && ids.has(id)) continue;
		if (id !== undefined) ids.add(id);
		remember(cursor, statement, clock.nowMs());
		emitted.push(statement);
		if (emitted.length >= MAX_STATEMENTS_PER_POLL) break;
	}
	holdBack(cursor, clock.nowMs());
	warnAhead(
		run,
		emitted.filter((statement) => (storedMsOf(statement) ?? -Infinity) > clock.nowMs()),
		clock,
	);
	return emitted;
}

function warnAhead(run: TriggerRun, ahead: IDataObject[], clock: StoreClock): void {
	if (ahead.length === 0) return;
	const first = ahead[0];
	const message = `xAPI Trigger "${run.fns.getNode().name}": the record store sent ${ahead.length} statement(s) stored after its own clock (${new Date(clock.nowMs()).toISOString()}), e.g. ${excerpt(String(first.id), 100)} stored ${excerpt(String(first.stored), 100)}. They count as seen; the trigger goes on from the store's clock, not from their time, so later statements are not missed.`;
	run.fns.logger.warn(run.redactor.text(message));
}

export async function latestStatement(
	run: TriggerRun,
	queries: IDataObject[],
): Promise<IDataObject | undefined> {
	let latest: IDataObject | undefined;
	const storedMs = (statement: IDataObject) => storedMsOf(statement) ?? -Infinity;
	const action = 'Reading the latest statement';
	await readQueries(run, queries, { qs: { limit: 1 }, action }, () => ([candidate]) => {
		if (candidate && (!latest || storedMs(candidate) > storedMs(latest))) latest = candidate;
		return false;
	});
	return latest;
}

// The store sets `stored`, so none is later than its clock; one that is (a wrong clock once, an
// import) must not move the cursor past the present, or every later statement would be skipped.
const CONSISTENT_THROUGH = 'x-experience-api-consistent-through';

/** HTTP's `Date` counts whole seconds: the clock may read up to this much later. */
const DATE_RESOLUTION_MS = 1_000;

/** Far more than clocks on the internet differ by, far less than a made-up time in a later year. */
export const UNKNOWN_CLOCK_SLACK_MS = 24 * 60 * 60_000;

// The later of Consistent-Through and Date: either may lag the clock that sets `stored`, and a
// lagging bound would hold the cursor back and call statements stored meanwhile "ahead".
export function clockOf(headers: Record<string, unknown>): number | undefined {
	// A header given twice arrives as a list: its first value counts.
	const through = msOf([headers[CONSISTENT_THROUGH]].flat()[0]) ?? -Infinity;
	const date = msOf([headers.date].flat()[0]) ?? -Infinity;
	const latest = Math.max(through, date + DATE_RESOLUTION_MS - 1);
	return latest === -Infinity ? undefined : latest;
}

export class StoreClock {
	private latestMs: number | undefined;

	constructor(private readonly localNow: () => number = Date.now) {}

	read(headers: Record<string, unknown>): void {
		const ms = clockOf(headers);
		if (ms !== undefined) this.latestMs = Math.max(ms, this.latestMs ?? -Infinity);
	}

	nowMs(): number {
		return this.latestMs ?? this.localNow() + UNKNOWN_CLOCK_SLACK_MS;
	}
}
