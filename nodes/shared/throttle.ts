import { sleep } from 'n8n-workflow';

/**
 * Spaces request starts evenly so that one client never goes over its per-minute budget.
 * One instance per client key lives for the whole process, so every execution (and every
 * concurrent item) that uses the same client id shares the budget.
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

	/** Resolves when the caller may send one request. */
	async acquire(): Promise<void> {
		for (;;) {
			const epoch = this.pauseEpoch;
			const now = Date.now();
			const slot = Math.max(now, this.nextSlotAt, this.pausedUntil);
			this.nextSlotAt = slot + this.intervalMs;
			if (slot > now) await sleep(slot - now);
			// A 429 seen by another request while we waited invalidates the slot we reserved.
			if (epoch === this.pauseEpoch || Date.now() >= this.pausedUntil) return;
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

const throttles = new Map<string, RequestThrottle>();

/** The process-wide throttle for one client key (e.g. base URL + client id). */
export function throttleFor(key: string, requestsPerMinute: number): RequestThrottle {
	let throttle = throttles.get(key);
	if (!throttle) {
		throttle = new RequestThrottle(requestsPerMinute);
		throttles.set(key, throttle);
	} else {
		throttle.setRate(requestsPerMinute);
	}
	return throttle;
}

/** How many items to keep in flight so that the throttle, not latency, sets the pace. */
export function concurrencyFor(requestsPerMinute: number): number {
	// Enough requests in flight to cover up to three seconds of latency at the full rate.
	const perSecond = requestsPerMinute > 0 ? requestsPerMinute / 60 : 10;
	return Math.min(200, Math.max(2, Math.ceil(perSecond * 3)));
}
