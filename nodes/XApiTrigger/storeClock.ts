// The store sets `stored`, so none is later than its clock; one that is (a wrong clock once, an
// import) must not move the cursor past the present, or every later statement would be skipped.
const CONSISTENT_THROUGH = 'x-experience-api-consistent-through';

/** HTTP's `Date` counts whole seconds: the clock may read up to this much later. */
const DATE_RESOLUTION_MS = 1_000;

/** Far more than clocks on the internet differ by, far less than a made-up time in a later year. */
export const UNKNOWN_CLOCK_SLACK_MS = 24 * 60 * 60_000;

// The later of Consistent-Through and Date: either may lag the clock that sets `stored`, and a
// lagging bound would hold the cursor back and call statements stored meanwhile "ahead".
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

export class StoreClock {
	private latestMs: number | undefined;

	constructor(private readonly localNow: () => number = Date.now) {}

	read(headers: Record<string, unknown>): void {
		const ms = clockOf(headers);
		if (ms !== undefined) this.latestMs = Math.max(ms, this.latestMs ?? -Infinity);
	}

	nowMs(): number {
		return this.latestMs ?? this.localNow() + UNKNOWN_CLOCK_SLACK_MS;
	}
}
