import { TOKEN_PATH, type LoggedRequest, type Sandbox } from '../sandbox/server';
import { delay } from './processes';

export const COURSES_PATH = '/api/developer/v2/courses.json';
export const USER_COURSES_PATH = '/api/developer/v2/user_courses.json';
export const TRANSACTION_PATH_PREFIX = '/api/developer/v2/request_data/';

/** The sandbox's newest log entry number, to look only at what comes after it. */
export function lastSeq(lms: Sandbox): number {
	const log = lms.requests();
	return log.length === 0 ? 0 : log[log.length - 1].seq;
}

export function requestsSince(lms: Sandbox, afterSeq: number): LoggedRequest[] {
	return lms.requests().filter((entry) => entry.seq > afterSeq);
}

export function tokenRequests(entries: LoggedRequest[]): LoggedRequest[] {
	return entries.filter((entry) => entry.path === TOKEN_PATH);
}

export function apiRequests(entries: LoggedRequest[]): LoggedRequest[] {
	return entries.filter((entry) => entry.path !== TOKEN_PATH);
}

/** The bearer tokens the requests carried, in order of first use. */
export function bearerTokens(entries: LoggedRequest[]): string[] {
	const tokens = entries
		.map((entry) => /^Bearer (\S+)$/.exec(entry.headers.authorization ?? '')?.[1])
		.filter((token): token is string => token !== undefined);
	return [...new Set(tokens)];
}

/** Accepted (202) writes to `path`, i.e. the transactions the sandbox queued. */
export function acceptedWrites(entries: LoggedRequest[], path: string): LoggedRequest[] {
	return entries.filter(
		(entry) => entry.method === 'POST' && entry.path === path && entry.status === 202,
	);
}

/** Waits until no transaction is still `initiated` (they apply `transactionDelayMs` after acceptance). */
export async function settleTransactions(lms: Sandbox, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (lms.state().transactions.some((transaction) => transaction.status === 'initiated')) {
		if (Date.now() > deadline) throw new Error('sandbox transactions still in progress');
		await delay(50);
	}
}

/**
 * Creates courses straight through the sandbox's API (not through n8n), for
 * tests that need a catalog larger than one page. Its throttle is lifted
 * meanwhile; the token it fetches is its own.
 */
export async function seedCourses(
	lms: Sandbox,
	bodies: Array<Record<string, unknown>>,
): Promise<void> {
	const tokenAnswer = await fetch(
		`${lms.url}${TOKEN_PATH}?${new URLSearchParams({
			client_id: lms.clientId,
			client_secret: lms.clientSecret,
			grant_type: 'client_credentials',
		})}`,
		{ method: 'POST' },
	);
	const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
	const rate = lms.options.rateLimitPerMinute;
	lms.configure({ rateLimitPerMinute: 0 });
	try {
		for (const body of bodies) {
			const answer = await fetch(`${lms.url}${COURSES_PATH}`, {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${token}`,
					Accept: 'application/json',
					'Content-Type': 'application/json',
				},
				body: JSON.stringify(body),
			});
			if (answer.status !== 202)
				throw new Error(`seeding a course: ${answer.status} ${await answer.text()}`);
		}
	} finally {
		lms.configure({ rateLimitPerMinute: rate });
	}
	await settleTransactions(lms);
}
