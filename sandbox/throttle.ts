/**
 * Per-client token bucket: holds one second's worth of requests (at least one) and
 * refills at rate/60 per second, so a client may burst briefly but not exceed the rate.
 */

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

interface Bucket {
	tokens: number;
	updatedAt: number;
}

/** Guards against 0.9999999 tokens after floating-point refills. */
const EPSILON = 1e-9;

export class Throttle {
	private readonly buckets = new Map<string, Bucket>();

	constructor(private ratePerMinute: number) {}

	get capacity(): number {
		return Math.max(1, Math.ceil(this.ratePerMinute / 60));
	}

	setRate(ratePerMinute: number): void {
		if (ratePerMinute === this.ratePerMinute) return;
		this.ratePerMinute = ratePerMinute;
		this.buckets.clear();
	}

	/** Takes one token if there is one; a refusal takes nothing. */
	take(clientId: string, now: number): ThrottleDecision {
		if (this.ratePerMinute <= 0) return { allowed: true };
		const perMs = this.ratePerMinute / 60 / 1000;
		const bucket = this.buckets.get(clientId) ?? { tokens: this.capacity, updatedAt: now };
		bucket.tokens = Math.min(
			this.capacity,
			bucket.tokens + Math.max(0, now - bucket.updatedAt) * perMs,
		);
		bucket.updatedAt = now;
		this.buckets.set(clientId, bucket);
		if (bucket.tokens >= 1 - EPSILON) {
			bucket.tokens = Math.max(0, bucket.tokens - 1);
			return { allowed: true };
		}
		const waitMs = (1 - bucket.tokens) / perMs;
		return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)) };
	}

	clear(): void {
		this.buckets.clear();
	}
}
