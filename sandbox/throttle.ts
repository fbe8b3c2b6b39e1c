/**
 * Per-client throttle, as documented: "All calls are throttled at N requests per minute per
 * client". How the platform counts a minute is not shown, so the sandbox offers the shapes a
 * platform may run (`throttleShape`), each at N a minute:
 * - `sliding-60s+bucket-1s` (the default): never more than N granted in any 60 seconds, and a
 *   token bucket holding one second's worth (at least one) refilled at N/60 per second, so a
 *   client may burst briefly but must otherwise spread its requests. The bucket alone would let
 *   N + one second's worth through in a minute; the window stops that.
 * - `sliding-60s`: never more than N granted in any 60 seconds.
 * - `fixed-60s`, `fixed-6s`: N (N/10) granted per window of 60 s (6 s); a window opens with the
 *   first request after the last one closed, and Retry-After says when it closes.
 * - `bucket-1s`: the token bucket alone.
 * A refused request counts against no window and takes no token.
 */

/** A refusal's wait in whole seconds (as HTTP's Retry-After carries it) and exactly. */
export type ThrottleDecision =
	| { allowed: true }
	| { allowed: false; retryAfterSec: number; waitMs: number };

export const THROTTLE_SHAPES = [
	'sliding-60s+bucket-1s',
	'sliding-60s',
	'fixed-60s',
	'fixed-6s',
	'bucket-1s',
] as const;

export type ThrottleShape = (typeof THROTTLE_SHAPES)[number];

/** Guards against 0.9999999 tokens after floating-point refills. */
const EPSILON = 1e-9;

export const THROTTLE_WINDOW_MS = 60_000;

/** One rule of a shape, for one client: how long until it grants, and its record of a grant. */
export interface Rule {
	waitMs(now: number): number;
	grant(now: number): void;
}

/** Never more than `limit()` granted in any `windowMs`. */
export function slidingWindow(windowMs: number, limit: () => number): Rule {
	const granted: number[] = [];
	return {
		waitMs(now) {
			while (granted.length > 0 && granted[0] <= now - windowMs) granted.shift();
			const count = limit();
			return granted.length < count ? 0 : granted[granted.length - count] + windowMs - now;
		},
		grant: (now) => void granted.push(now),
	};
}

function fixedWindow(windowMs: number, limit: number): Rule {
	let opened = Number.NEGATIVE_INFINITY;
	let count = 0;
	return {
		waitMs: (now) => (now >= opened + windowMs || count < limit ? 0 : opened + windowMs - now),
		grant(now) {
			if (now >= opened + windowMs) [opened, count] = [now, 0];
			count++;
		},
	};
}

function tokenBucket(capacity: number, perMs: number): Rule {
	let tokens = capacity;
	let updatedAt = Number.NEGATIVE_INFINITY;
	const refill = (now: number) => {
		tokens = Math.min(capacity, tokens + Math.max(0, now - updatedAt) * perMs);
		updatedAt = Math.max(updatedAt, now);
	};
	return {
		waitMs(now) {
			refill(now);
			return tokens < 1 - EPSILON ? (1 - tokens) / perMs : 0;
		},
		grant(now) {
			refill(now);
			tokens = Math.max(0, tokens - 1);
		},
	};
}

export class Throttle {
	private readonly clients = new Map<string, Rule[]>();

	constructor(
		private ratePerMinute: number,
		private shape: ThrottleShape = 'sliding-60s+bucket-1s',
	) {}

	/** The bucket's size: one second's worth, at least one. */
	get capacity(): number {
		return Math.max(1, Math.ceil(this.ratePerMinute / 60));
	}

	/** The most requests granted in any 60 seconds. */
	get perWindow(): number {
		return Math.max(1, Math.floor(this.ratePerMinute));
	}

	setRate(ratePerMinute: number, shape = this.shape): void {
		if (ratePerMinute === this.ratePerMinute && shape === this.shape) return;
		this.ratePerMinute = ratePerMinute;
		this.shape = shape;
		this.clients.clear();
	}

	/** Takes one request's worth if every rule of the shape allows it; a refusal takes nothing. */
	take(clientId: string, now: number): ThrottleDecision {
		if (this.ratePerMinute <= 0) return { allowed: true };
		const rules = this.clients.get(clientId) ?? this.rules();
		this.clients.set(clientId, rules);
		const waitMs = Math.max(...rules.map((rule) => rule.waitMs(now)));
		if (waitMs > 0) {
			return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)), waitMs };
		}
		for (const rule of rules) rule.grant(now);
		return { allowed: true };
	}

	clear(): void {
		this.clients.clear();
	}

	private rules(): Rule[] {
		const perMs = this.ratePerMinute / THROTTLE_WINDOW_MS;
		const bucket = () => tokenBucket(this.capacity, perMs);
		const sliding = () => slidingWindow(THROTTLE_WINDOW_MS, () => this.perWindow);
		const fixed = (ms: number) =>
			fixedWindow(ms, Math.max(1, Math.floor((this.ratePerMinute * ms) / THROTTLE_WINDOW_MS)));
		switch (this.shape) {
			case 'sliding-60s+bucket-1s':
				return [sliding(), bucket()];
			case 'sliding-60s':
				return [sliding()];
			case 'fixed-60s':
				return [fixed(THROTTLE_WINDOW_MS)];
			case 'fixed-6s':
				return [fixed(THROTTLE_WINDOW_MS / 10)];
			case 'bucket-1s':
				return [bucket()];
		}
	}
}
