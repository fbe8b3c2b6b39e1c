import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ENDPOINT_PATH, LRS_ORIGIN, STATEMENTS_PATH } from './fixtures';

/**
 * GET /statements over an in-memory list, with the query semantics that matter to the trigger:
 * verb filter, `since` (exclusive as xAPI says, or inclusive as some stores do), `ascending`,
 * `limit`, and `more` links (relative) that carry the offset. Every query is recorded; each
 * answer may come after a delay.
 */
export function fakeLrs({
	sinceInclusive = false,
	delayMs = 0,
}: { sinceInclusive?: boolean; delayMs?: number } = {}) {
	const store: IDataObject[] = [];
	const queries: IDataObject[] = [];
	const pending = new Map<string, IDataObject>();
	let nextToken = 0;

	const scope = nock(LRS_ORIGIN)
		.persist()
		.get(STATEMENTS_PATH)
		.query(true)
		.delay(delayMs)
		.reply((uri) => {
			const params = Object.fromEntries(new URL(uri, LRS_ORIGIN).searchParams);
			let query: IDataObject = params;
			let offset = 0;
			if (params.more) {
				const saved = pending.get(params.more);
				if (!saved) return [400, { message: 'unknown more token' }];
				({ offset, ...query } = saved as IDataObject & { offset: number });
			} else {
				queries.push(params);
			}
			const sinceMs = query.since ? Date.parse(String(query.since)) : -Infinity;
			const matching = store
				.filter((s) => !query.verb || (s.verb as IDataObject).id === query.verb)
				.filter((s) => {
					const ms = Date.parse(String(s.stored));
					return sinceInclusive ? ms >= sinceMs : ms > sinceMs;
				})
				.sort((a, b) => Date.parse(String(a.stored)) - Date.parse(String(b.stored)));
			if (query.ascending !== 'true') matching.reverse();
			const limit = Number(query.limit) || 100;
			const page = matching.slice(offset, offset + limit);
			let more = '';
			if (offset + limit < matching.length) {
				const token = `t${nextToken++}`;
				pending.set(token, { ...query, offset: offset + limit });
				more = `${ENDPOINT_PATH}/statements?more=${token}`;
			}
			return [200, { statements: page, more }];
		});

	let counter = 0;
	return {
		store,
		queries,
		scope,
		/** Stores a statement at the given `stored` time; returns its id. */
		add(stored: string, verb = 'http://adlnet.gov/expapi/verbs/completed'): string {
			counter++;
			const id = `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
			store.push({
				id,
				actor: { mbox: `mailto:learner${counter}@example.com` },
				verb: { id: verb },
				object: { id: `https://learn.test/cards/${counter}` },
				stored,
				timestamp: stored,
			});
			return id;
		},
	};
}
