import { sleep } from 'n8n-workflow';

import { describeHttpFailure, isRetryableServerFailure } from './httpFailure';
import type { RequestThrottle } from './throttle';

export interface RetryPolicy {
	/** Whether sending the request twice has the same effect as sending it once. */
	safeToRepeat: boolean;
	/** Attempts in all for 5xx and network failures (only when safe to repeat). */
	maxAttempts?: number;
	/** Attempts in all for 429 answers, which are always safe: nothing was processed. */
	maxThrottledAttempts?: number;
	baseDelayMs?: number;
	maxDelayMs?: number;
	/**
	 * Attempts in all for 401 answers. n8n already fetches a new token and repeats once; a token
	 * revoked again meanwhile (the platform's tokens can expire under load) is worth a few more
	 * tries, and a 401 means nothing was processed.
	 */
	maxUnauthorizedAttempts?: number;
}

const DEFAULTS = {
	maxAttempts: 5,
	maxThrottledAttempts: 12,
	maxUnauthorizedAttempts: 1,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/** "Full jitter" exponential backoff: a random delay up to base × 2^attempt, capped. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
	const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
	return Math.round(Math.random() * ceiling);
}

/**
 * Sends through the throttle, waits out 429s (Retry-After, else backoff) and repeats 5xx and
 * network failures only when the request is safe to repeat. The last failure is rethrown as is.
 */
export async function sendWithRetry<T>(
	send: () => Promise<T>,
	policy: RetryPolicy,
	throttle?: RequestThrottle,
): Promise<T> {
	const { maxAttempts, maxThrottledAttempts, maxUnauthorizedAttempts, baseDelayMs, maxDelayMs } = {
		...DEFAULTS,
		...policy,
	};
	let failures = 0;
	let throttled = 0;
	let unauthorized = 0;
	for (;;) {
		if (throttle) await throttle.acquire();
		let lastError: unknown;
		try {
			return await send();
		} catch (error) {
			lastError = error;
		}
		const failure = describeHttpFailure(lastError);
		if (failure.status === 429 && ++throttled < maxThrottledAttempts) {
			const wait = failure.retryAfterMs ?? backoffDelay(throttled, baseDelayMs, maxDelayMs);
			if (throttle) throttle.pause(wait);
			else await sleep(wait);
			continue;
		}
		if (failure.status === 401 && ++unauthorized < maxUnauthorizedAttempts) continue;
		if (policy.safeToRepeat && isRetryableServerFailure(failure) && ++failures < maxAttempts) {
			await sleep(backoffDelay(failures, baseDelayMs, maxDelayMs));
			continue;
		}
		throw lastError;
	}
}
