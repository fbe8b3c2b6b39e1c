/**
 * The roster example's rules (examples/roster-sync.json, "Required courses"), for the demo and
 * the end-to-end suite to check the platform against: department → required courses, due 30
 * days after the start date.
 */
import { parseCsv } from './csv';

export const REQUIRED_COURSES: Record<string, string[]> = {
	Engineering: ['sec-awareness-2026', 'secure-coding'],
	Finance: ['sec-awareness-2026', 'data-privacy-gdpr', 'finance-for-managers'],
	Sales: ['sec-awareness-2026', 'customer-empathy', 'negotiation-basics'],
	People: ['sec-awareness-2026', 'data-privacy-gdpr', 'respect-at-work'],
};

export interface RequiredPair {
	email: string;
	course: string;
	due: string;
}

function dueDate(start: string): string {
	const day = new Date(`${start}T00:00:00Z`);
	day.setUTCDate(day.getUTCDate() + 30);
	return day.toISOString().slice(0, 10);
}

/** Every pair an export requires. */
export function requiredPairs(csv: string): RequiredPair[] {
	return parseCsv(csv).flatMap((row) =>
		(REQUIRED_COURSES[row.department] ?? []).map((course) => ({
			email: row.email,
			course,
			due: dueDate(row.start_date),
		})),
	);
}

export const LEAVER = 'barbara.liskov@example.com';
export const JOINER = 'joan.clarke@example.com';
export const MOVED = 'alan.turing@example.com';

/** The second night's export: one leaver (2 pairs), one joiner (3 pairs), one start date moved (2 pairs). */
export function secondNightRoster(csv: string): string {
	const lines = csv
		.trimEnd()
		.split('\n')
		.filter((line) => !line.startsWith(`${LEAVER},`))
		.map((line) =>
			line.startsWith(`${MOVED},`) ? line.replace(/,\d{4}-\d{2}-\d{2}$/, ',2026-11-16') : line,
		);
	return [...lines, `${JOINER},Joan Clarke,Finance,2026-11-23`].join('\n') + '\n';
}
