import type { CompletionEstimate } from './time';

/** When to check a write's transaction first, learned per client. */
const completions = new Map<string, LearnedCompletion>();

/** Per API client (`clientKey`), for the process. */
export function clientCompletion(key: string): LearnedCompletion {
	const estimate = completions.get(key) ?? new LearnedCompletion();
	completions.set(key, estimate);
	return estimate;
}

/** A late check costs one item's latency, not the run's throughput: waiting holds no place. */
export class LearnedCompletion implements CompletionEstimate {
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
