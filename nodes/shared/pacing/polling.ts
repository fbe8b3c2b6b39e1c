import { pause, SLEEP_STEP_MS, type Deadline } from './time';

/**
 * Each wait 1.5 times the last, so checks grow logarithmically with time; `notBeforeMs` is asked
 * again while waiting (a later answer postpones checks), at most half the budget.
 */
export async function pollUntil<T>(
	check: () => Promise<{ done: boolean; value: T }>,
	{
		deadline,
		notBeforeMs,
		intervalMs,
	}: { deadline: Deadline; notBeforeMs?: () => number; intervalMs: number },
) {
	let interval = Math.max(1, intervalMs);
	let polls = 0;
	const started = deadline.now();
	const latestStart = deadline.remainingMs() / 2;
	for (;;) {
		for (;;) {
			const notBefore = started + Math.min(notBeforeMs?.() ?? 0, latestStart);
			const left = Math.min(notBefore - deadline.now(), deadline.remainingMs());
			if (left <= 0 || deadline.cancelled) break;
			await pause(Math.min(left, SLEEP_STEP_MS), deadline.cancelSignal);
		}
		const result = await check();
		polls++;
		const remaining = deadline.remainingMs();
		if (result.done || remaining <= 0 || deadline.cancelled) return { ...result, polls };
		await pause(Math.min(interval, remaining), deadline.cancelSignal);
		interval = Math.min(30_000, interval * 1.5);
	}
}

const completions = new Map<string, CompletionEstimate>();

/** Per API client (`clientKey`), for the process. */
export function clientCompletion(key: string): CompletionEstimate {
	const estimate = completions.get(key) ?? new CompletionEstimate();
	completions.set(key, estimate);
	return estimate;
}

/** A late check costs one item's latency, not the run's throughput: waiting holds no place. */
export class CompletionEstimate {
	private firstCheckMs: number;

	private seenRunningMs = 0;

	constructor(initialMs = 1_000) {
		this.firstCheckMs = firstCheckWithinBounds(initialMs);
	}

	firstCheckDelayMs(): number {
		return this.firstCheckMs;
	}

	observeFirstCheck(elapsedMs: number, done: boolean): void {
		if (done) {
			// The longest seen running is forgotten slowly, so misses stay rare.
			this.seenRunningMs *= 0.999;
			const shrunk = Math.max(this.firstCheckMs * 0.99, this.seenRunningMs * 1.25);
			this.firstCheckMs = firstCheckWithinBounds(shrunk);
			return;
		}
		this.seenRunningMs = Math.max(this.seenRunningMs, elapsedMs);
		// From the elapsed time: items accepted together miss together, and count as one miss.
		this.firstCheckMs = firstCheckWithinBounds(Math.max(this.firstCheckMs, elapsedMs * 2));
	}
}

function firstCheckWithinBounds(ms: number): number {
	return Math.min(30_000, Math.max(500, ms));
}
