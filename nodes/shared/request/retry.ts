export interface RetryPolicy {
	/** Whether sending the request twice has the same effect as sending it once. */
	safeToRepeat: boolean;
	maxAttempts?: number;
	/** Attempts in all for 429 answers, which are always safe: nothing was processed. */
	maxThrottledAttempts?: number;
	/** n8n already fetches a new token and repeats once; a 401 means nothing was processed. */
	maxUnauthorizedAttempts?: number;
	baseDelayMs?: number;
	maxDelayMs?: number;
}

export const RETRY_DEFAULTS = {
	maxAttempts: 5,
	maxThrottledAttempts: 12,
	maxUnauthorizedAttempts: 1,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/** Shorter Retry-After values wait the minimum; longer ones fail the item, not hold the client. */
export const RETRY_AFTER_MIN_MS = 1_000;
export const RETRY_AFTER_MAX_MS = 120_000;

/** "Full jitter" exponential backoff: a random delay up to base × 2^attempt, capped. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
	const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
	return Math.round(Math.random() * ceiling);
}

export type ThrottleWait = { waitMs: number } | { tooLongMs: number; retryAt: string };

export function waitAfterThrottle(
	retryAfterHeader: unknown,
	throttledCount: number,
	now = Date.now(),
): ThrottleWait {
	const asked = parseRetryAfter(retryAfterHeader, now);
	if (asked === undefined) {
		const { baseDelayMs, maxDelayMs } = RETRY_DEFAULTS;
		return {
			waitMs: Math.max(
				RETRY_AFTER_MIN_MS / 2,
				backoffDelay(throttledCount, baseDelayMs, maxDelayMs),
			),
		};
	}
	if (asked > RETRY_AFTER_MAX_MS) {
		const at = new Date(now + asked);
		return { tooLongMs: asked, retryAt: Number.isNaN(at.getTime()) ? 'never' : at.toISOString() };
	}
	return { waitMs: Math.max(RETRY_AFTER_MIN_MS, asked) };
}

/** Delta-seconds or an HTTP date; negative numbers and past dates give 0. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^-?\d+(\.\d+)?$/.test(text)) return Math.max(0, Math.round(Number(text) * 1000));
	if (!/[a-z]/i.test(text)) return undefined;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function requestTimeoutMs(
	credentials: { requestTimeout?: unknown },
	defaultSec: number,
): number {
	const seconds = Number(credentials.requestTimeout);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : defaultSec) * 1000;
}
