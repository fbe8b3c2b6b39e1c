import type { Deadline } from './deadline';
import { pause } from './deadline';

/** Why a caller did not get a slot. */
export type SlotRefusal = 'cancelled' | 'deadline';

/**
 * Spaces request starts evenly so that one client never goes over its per-minute budget.
 * One instance per client lives for the whole process (see clients.ts), so every execution
 * (and every concurrent item) that uses the same client shares the budget.
 */
export class RequestThrottle {
	private intervalMs: number;

	private nextSlotAt = 0;

	private pausedUntil = 0;

	private pauseEpoch = 0;

	constructor(requestsPerMinute: number) {
		this.intervalMs = intervalFor(requestsPerMinute);
	}

	setRate(requestsPerMinute: number): void {
		this.intervalMs = intervalFor(requestsPerMinute);
	}

	/**
	 * Resolves when the caller may send one request, or with the reason it may not: the run was
	 * cancelled, or the slot lies beyond the caller's deadline.
	 */
	async acquire(deadline?: Deadline): Promise<SlotRefusal | undefined> {
		for (;;) {
			if (deadline?.cancelled) return 'cancelled';
			const epoch = this.pauseEpoch;
			const now = Date.now();
			const slot = Math.max(now, this.nextSlotAt, this.pausedUntil);
			if (deadline && slot - now > deadline.remainingMs()) return 'deadline';
			this.nextSlotAt = slot + this.intervalMs;
			if (slot > now && !(await pause(slot - now, deadline?.cancelSignal))) return 'cancelled';
			// A 429 seen by another request while we waited invalidates the slot we reserved.
			if (epoch === this.pauseEpoch || Date.now() >= this.pausedUntil) return undefined;
		}
	}

	/** Holds every request of this client back, e.g. for a 429's Retry-After. */
	pause(ms: number): void {
		const until = Date.now() + ms;
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		this.nextSlotAt = Math.max(this.nextSlotAt, until);
		this.pauseEpoch++;
	}
}

function intervalFor(requestsPerMinute: number): number {
	return requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0;
}

/** How many items to keep in flight so that the throttle, not latency, sets the pace. */
export function concurrencyFor(requestsPerMinute: number): number {
	// Enough requests in flight to cover up to three seconds of latency at the full rate.
	const perSecond = requestsPerMinute > 0 ? requestsPerMinute / 60 : 10;
	return Math.min(200, Math.max(2, Math.ceil(perSecond * 3)));
}
