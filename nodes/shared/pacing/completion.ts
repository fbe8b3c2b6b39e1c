/** The first check never comes sooner than this, nor later than this. */
const MIN_FIRST_CHECK_MS = 500;
const MAX_FIRST_CHECK_MS = 30_000;

/** A first check that finds the job still running pushes the next ones this much later. */
const GROWTH_ON_MISS = 2;

/** Each first check that finds the job done brings the next ones this much sooner… */
const SHRINK_ON_HIT = 0.99;

/** …but not below this multiple of the longest a job was recently seen still running… */
const ABOVE_SEEN_RUNNING = 1.25;

/** …which is forgotten this slowly (per check that found a job done), so misses stay rare. */
const FORGET_SEEN_RUNNING = 0.999;

/**
 * When to check a job the service accepted in the background (a transaction), learned from
 * the jobs before it. A check after the job finished confirms it in one request; each check
 * before costs one more. Writes are confirmed in about one request each by checking late
 * rather than early: an item that waits holds no place in the pool and no throttle budget,
 * so a later check costs that item's latency, not the run's throughput. The estimate grows
 * fast on a miss (every item accepted meanwhile would miss too) and shrinks slowly on hits,
 * never below what was seen still running.
 */
export class CompletionEstimate {
	private firstCheckMs: number;

	private seenRunningMs = 0;

	constructor(initialMs = 1_000) {
		this.firstCheckMs = clamp(initialMs);
	}

	/** How long after the acceptance to check first. */
	firstCheckDelayMs(): number {
		return this.firstCheckMs;
	}

	/** The first check, `elapsedMs` after the acceptance, found the job done (or not). */
	observeFirstCheck(elapsedMs: number, done: boolean): void {
		if (done) {
			this.seenRunningMs *= FORGET_SEEN_RUNNING;
			this.firstCheckMs = clamp(
				Math.max(this.firstCheckMs * SHRINK_ON_HIT, this.seenRunningMs * ABOVE_SEEN_RUNNING),
			);
			return;
		}
		this.seenRunningMs = Math.max(this.seenRunningMs, elapsedMs);
		// From the elapsed time, not the estimate: items accepted together miss together, and
		// count as one miss.
		this.firstCheckMs = clamp(Math.max(this.firstCheckMs, elapsedMs * GROWTH_ON_MISS));
	}
}

function clamp(ms: number): number {
	return Math.min(MAX_FIRST_CHECK_MS, Math.max(MIN_FIRST_CHECK_MS, ms));
}
