import { sleep } from 'n8n-workflow';

import type { Clock, Deadline } from './deadline';

/**
 * Every wait of the package: a pause that ends on cancellation, a promise raced against a
 * signal, one signal for several, and polling until a job is done. All read the deadline's
 * clock, so a test's fake clock reaches every one of them.
 */

/** Longest single timer: a cancelled wait leaves at most this much of a timer behind. */
const SLEEP_STEP_MS = 1_000;

/**
 * Waits `ms`, or less if the signal aborts first. Resolves true when the whole time passed.
 * Sleeps in steps so that a cancelled run leaves no long timer behind it.
 */
export async function pause(
	ms: number,
	signal?: AbortSignal,
	clock: Clock = Date.now,
): Promise<boolean> {
	const until = clock() + Math.max(0, ms);
	for (;;) {
		if (signal?.aborted) return false;
		const left = until - clock();
		if (left <= 0) return true;
		await untilAborted(sleep(Math.min(left, SLEEP_STEP_MS)), signal);
	}
}

/** `promise`, or earlier once the signal aborts; no listener stays behind. */
export async function untilAborted<T>(
	promise: Promise<T>,
	signal?: AbortSignal,
): Promise<T | undefined> {
	if (!signal) return await promise;
	if (signal.aborted) return undefined;
	let onAbort: () => void = () => {};
	const aborted = new Promise<undefined>((resolve) => {
		onAbort = () => resolve(undefined);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** One signal that aborts when any of the given ones does; `dispose` detaches it. */
export function anySignal(signals: Array<AbortSignal | undefined>): {
	signal: AbortSignal;
	dispose: () => void;
} {
	const controller = new AbortController();
	const sources = signals.filter((s): s is AbortSignal => s !== undefined);
	const abort = () => controller.abort();
	for (const source of sources) {
		if (source.aborted) {
			controller.abort();
			break;
		}
		source.addEventListener('abort', abort, { once: true });
	}
	return {
		signal: controller.signal,
		dispose: () => sources.forEach((source) => source.removeEventListener('abort', abort)),
	};
}

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
	const started = deadline.now();
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
		const left = Math.min(started + offsetMs() - deadline.now(), deadline.remainingMs());
		if (left <= 0 || deadline.cancelled) return;
		await pause(Math.min(left, NOT_BEFORE_STEP_MS), deadline.cancelSignal);
	}
}
