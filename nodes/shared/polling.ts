import type { Deadline } from './deadline';
import { pause } from './deadline';

export interface PollOptions {
	/** Ends the polling: no check starts, and no wait lasts, past it. */
	deadline: Deadline;
	/** Wait before the first check (none by default). */
	firstWaitMs?: number;
	/** First wait between checks. */
	intervalMs: number;
	/** Each wait is this many times the previous one, so checks grow logarithmically with time. */
	factor?: number;
	maxIntervalMs?: number;
}

export interface PollOutcome<T> {
	done: boolean;
	value: T;
	polls: number;
}

/**
 * Checks until `check` says done or the deadline passes; never sleeps past the deadline, and
 * stops waiting as soon as the execution is cancelled.
 */
export async function pollUntil<T>(
	check: () => Promise<{ done: boolean; value: T }>,
	{ deadline, firstWaitMs = 0, intervalMs, factor = 1.5, maxIntervalMs = 30_000 }: PollOptions,
): Promise<PollOutcome<T>> {
	let interval = Math.max(1, intervalMs);
	let polls = 0;
	if (firstWaitMs > 0) {
		// Leave room for one check before the deadline.
		await pause(Math.min(firstWaitMs, deadline.remainingMs() / 2), deadline.cancelSignal);
	}
	for (;;) {
		const result = await check();
		polls++;
		const remaining = deadline.remainingMs();
		if (result.done || remaining <= 0 || deadline.cancelled) return { ...result, polls };
		await pause(Math.min(interval, remaining), deadline.cancelSignal);
		interval = Math.min(maxIntervalMs, interval * factor);
	}
}
