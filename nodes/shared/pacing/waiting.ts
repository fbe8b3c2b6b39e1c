import type { Deadline } from './deadline';
import { pause } from './deadline';

export interface PollOptions {
	/** Ends the polling: no check starts, and no wait lasts, past it. */
	deadline: Deadline;
	/**
	 * No check before this long after the start (asked again while waiting, so a later answer
	 * postpones checks not yet made). At most half the deadline's budget, leaving room to check.
	 */
	notBeforeMs?: () => number;
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

/** Longest single wait before the earliest check is asked again. */
const NOT_BEFORE_STEP_MS = 1_000;

/**
 * Checks until `check` says done or the deadline passes; never sleeps past the deadline, and
 * stops waiting as soon as the execution is cancelled.
 */
export async function pollUntil<T>(
	check: () => Promise<{ done: boolean; value: T }>,
	{ deadline, notBeforeMs, intervalMs, factor = 1.5, maxIntervalMs = 30_000 }: PollOptions,
): Promise<PollOutcome<T>> {
	let interval = Math.max(1, intervalMs);
	let polls = 0;
	const started = Date.now();
	const latestStart = deadline.remainingMs() / 2;
	for (;;) {
		if (notBeforeMs) await waitUntil(started, () => Math.min(notBeforeMs(), latestStart), deadline);
		const result = await check();
		polls++;
		const remaining = deadline.remainingMs();
		if (result.done || remaining <= 0 || deadline.cancelled) return { ...result, polls };
		await pause(Math.min(interval, remaining), deadline.cancelSignal);
		interval = Math.min(maxIntervalMs, interval * factor);
	}
}

async function waitUntil(started: number, offsetMs: () => number, deadline: Deadline) {
	for (;;) {
		const left = Math.min(started + offsetMs() - Date.now(), deadline.remainingMs());
		if (left <= 0 || deadline.cancelled) return;
		await pause(Math.min(left, NOT_BEFORE_STEP_MS), deadline.cancelSignal);
	}
}
