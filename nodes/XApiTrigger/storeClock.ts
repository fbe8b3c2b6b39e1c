/**
 * The record store's own clock, as its answers give it. A statement's `stored` time is set by
 * the store, so none can be later than the store's clock when it answered; one that is (a store
 * whose clock was wrong once, or a statement imported with a made-up `stored`) must not move
 * the trigger's cursor past the present, or every later statement would be skipped.
 */

/** The xAPI header that says up to when every statement stored is visible. */
const CONSISTENT_THROUGH = 'x-experience-api-consistent-through';

/** HTTP's `Date` counts whole seconds: the clock may read up to this much later. */
const DATE_RESOLUTION_MS = 1_000;

/**
 * Without either header, the bound is n8n's clock plus this much: far more than clocks on the
 * internet differ by, far less than a made-up time in a later year.
 */
export const UNKNOWN_CLOCK_SLACK_MS = 24 * 60 * 60_000;

/**
 * The latest time a store's answer says its clock read: its `X-Experience-API-Consistent-Through`
 * header (set by the record store itself: every statement stored up to then is visible) or its
 * `Date` header (the present to the second, possibly from a web server in front of it),
 * whichever is later. The later one, because either may lag the clock that sets `stored` (a
 * Consistent-Through by design, a Date on a server whose clock is behind): a bound that lags
 * would hold the cursor back, make every poll read the lag again and call statements stored in
 * the meantime "ahead".
 */
export function clockOf(headers: Record<string, unknown>): number | undefined {
	const through = timeOf(headers[CONSISTENT_THROUGH]);
	const date = timeOf(headers.date);
	const dateUntil = date === undefined ? undefined : date + DATE_RESOLUTION_MS - 1;
	if (through === undefined) return dateUntil;
	return dateUntil === undefined ? through : Math.max(through, dateUntil);
}

function timeOf(value: unknown): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' || !text.trim()) return undefined;
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? undefined : ms;
}

/** The store's clock over one poll: the latest any of its answers gave. */
export class StoreClock {
	private latestMs: number | undefined;

	constructor(private readonly localNow: () => number = Date.now) {}

	/** Takes what one answer's headers say. */
	read(headers: Record<string, unknown>): void {
		const ms = clockOf(headers);
		if (ms !== undefined && (this.latestMs === undefined || ms > this.latestMs)) {
			this.latestMs = ms;
		}
	}

	/** The latest time the store is known to have reached; no statement is stored after it. */
	nowMs(): number {
		return this.latestMs ?? this.localNow() + UNKNOWN_CLOCK_SLACK_MS;
	}
}
