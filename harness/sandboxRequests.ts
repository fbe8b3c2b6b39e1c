import { COURSES_PATH, TRANSACTION_PATH_PREFIX } from './lmsSandbox';
import type { LoggedRequest } from '../sandbox/server';

export interface RequestCounts {
	total: number;
	accepted: number;
	throttled: number;
	failed: number;
	dropped: number;
	tokens: number;
	byFault: Record<string, number>;
}

/** Summarises the sandbox's request log for one path (token requests counted apart). */
export function countRequests(log: LoggedRequest[], path?: string): RequestCounts {
	const counts: RequestCounts = {
		total: 0,
		accepted: 0,
		throttled: 0,
		failed: 0,
		dropped: 0,
		tokens: 0,
		byFault: {},
	};
	for (const entry of log) {
		if (entry.path.endsWith('/oauth/token')) {
			counts.tokens++;
			continue;
		}
		if (path !== undefined && entry.path !== path) continue;
		counts.total++;
		if (entry.fault) counts.byFault[entry.fault] = (counts.byFault[entry.fault] ?? 0) + 1;
		if (entry.status === null) counts.dropped++;
		else if (entry.status >= 200 && entry.status < 300) counts.accepted++;
		else if (entry.status === 429) counts.throttled++;
		else counts.failed++;
	}
	return counts;
}

/** The API requests of a log (token requests apart): catalog pages, course writes, transaction checks. */
export function requestKinds(log: LoggedRequest[]) {
	const api = log.filter((entry) => !entry.path.endsWith('/oauth/token'));
	const courses = (method: string) =>
		api.filter((entry) => entry.method === method && entry.path === COURSES_PATH).length;
	return {
		requests: api.length,
		pages: courses('GET'),
		writes: courses('POST'),
		checks: api.filter((entry) => entry.path.startsWith(TRANSACTION_PATH_PREFIX)).length,
	};
}
