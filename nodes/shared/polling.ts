import { sleep } from 'n8n-workflow';

export interface PollOptions {
	timeoutMs: number;
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

/** Checks until `check` says done or the timeout passes; never sleeps past the deadline. */
export async function pollUntil<T>(
	check: () => Promise<{ done: boolean; value: T }>,
	{ timeoutMs, intervalMs, factor = 1.5, maxIntervalMs = 30_000 }: PollOptions,
): Promise<PollOutcome<T>> {
	const deadline = Date.now() + timeoutMs;
	let interval = Math.max(1, intervalMs);
	let polls = 0;
	for (;;) {
		const result = await check();
		polls++;
		const remaining = deadline - Date.now();
		if (result.done || remaining <= 0) return { ...result, polls };
		await sleep(Math.min(interval, remaining));
		interval = Math.min(maxIntervalMs, interval * factor);
	}
}
