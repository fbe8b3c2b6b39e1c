/**
 * Per-client throttle, as documented: "All calls are throttled at N requests per minute per
 * client". Two rules together:
 * - a sliding window: never more than N requests granted in any 60 seconds;
 * - a token bucket: holds one second's worth of requests (at least one) and refills at N/60
 *   per second, so a client may burst briefly but must otherwise spread its requests.
 * The bucket alone would let N + one second's worth through in a minute; the window stops that.
 */

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

interface Bucket {
	tokens: number;
	updatedAt: number;
	/** When the requests granted in the last minute were granted, oldest first. */
	granted: number[];
}

/** Guards against 0.9999999 tokens after floating-point refills. */
const EPSILON = 1e-9;

export const THROTTLE_WINDOW_MS = 60_000;

export class Throttle {
	private readonly buckets = new Map<string, Bucket>();

	constructor(private ratePerMinute: number) {}

	get capacity(): number {
		return Math.max(1, Math.ceil(this.ratePerMinute / 60));
	}

	/** The most requests granted in any 60 seconds. */
	get perWindow(): number {
		return Math.max(1, Math.floor(this.ratePerMinute));
	}

	setRate(ratePerMinute: number): void {
		if (ratePerMinute === this.ratePerMinute) return;
		this.ratePerMinute = ratePerMinute;
		this.buckets.clear();
	}

	/** Takes one request's worth if both rules allow it; a refusal takes nothing. */
	take(clientId: string, now: number): ThrottleDecision {
		if (this.ratePerMinute <= 0) return { allowed: true };
		const perMs = this.ratePerMinute / 60 / 1000;
		const bucket = this.buckets.get(clientId) ?? {
			tokens: this.capacity,
			updatedAt: now,
			granted: [],
		};
		bucket.tokens = Math.min(
			this.capacity,
			bucket.tokens + Math.max(0, now - bucket.updatedAt) * perMs,
		);
		bucket.updatedAt = Math.max(bucket.updatedAt, now);
		this.buckets.set(clientId, bucket);
		while (bucket.granted.length > 0 && bucket.granted[0] <= now - THROTTLE_WINDOW_MS) {
			bucket.granted.shift();
		}

		let waitMs = 0;
		if (bucket.tokens < 1 - EPSILON) waitMs = (1 - bucket.tokens) / perMs;
		if (bucket.granted.length >= this.perWindow) {
			const leaving = bucket.granted[bucket.granted.length - this.perWindow];
			waitMs = Math.max(waitMs, leaving + THROTTLE_WINDOW_MS - now);
		}
		if (waitMs > 0) {
			return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)) };
		}
		bucket.tokens = Math.max(0, bucket.tokens - 1);
		bucket.granted.push(now);
		return { allowed: true };
	}

	clear(): void {
		this.buckets.clear();
	}
}
