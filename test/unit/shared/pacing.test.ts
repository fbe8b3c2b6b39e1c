/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { LearnedCompletion } from '../../../nodes/shared/pacing/completion';
import { Deadline } from '../../../nodes/shared/pacing/time';
import { mapWithConcurrency } from '../../../nodes/shared/items/pool';
import {
	ACCEPTANCE_WINDOW_MS,
	DECREASE_FACTOR,
	PLATEAU_SEC,
	RequestThrottle,
	spacingFor,
	WINDOW_MARGIN_MS,
} from '../../../nodes/shared/pacing/throttle';

// Time here is jest's fake clock: the tests check order, spacing and counts, not speed.
// Sends at the start of their slots (the throttle places each at random early in its slot).
let random: jest.SpyInstance;
beforeEach(() => {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	random = jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
	jest.useRealTimers();
	random.mockRestore();
});

/** Timers fire on whole milliseconds: a slot a fraction past one starts at the next. */
function expectNear(actual: number, expected: number): void {
	expect(actual).toBeGreaterThanOrEqual(Math.floor(expected));
	expect(actual).toBeLessThanOrEqual(Math.ceil(expected) + 1);
}

async function startsOf(
	throttle: RequestThrottle,
	count: number,
	advanceMs: number,
): Promise<number[]> {
	const starts: number[] = [];
	const all = Promise.all(
		Array.from({ length: count }, async () => {
			await throttle.acquire();
			starts.push(Date.now());
		}),
	);
	await jest.advanceTimersByTimeAsync(advanceMs);
	await all;
	return starts;
}

describe('RequestThrottle: the service minute', () => {
	test('never more than requestsPerMinute in a minute plus the margin', async () => {
		const throttle = new RequestThrottle(60); // one a second, 60 a minute
		const starts = await startsOf(throttle, 62, 70_000);
		const offsets = starts.map((t) => t - starts[0]);
		// Slots are a little over a second apart: 60 of them span the minute and its margin.
		expect(spacingFor(60)).toBe((60_000 + WINDOW_MARGIN_MS) / 60);
		offsets.slice(0, 62).forEach((offset, i) => expectNear(offset, i * spacingFor(60)));
		expect(offsets[60]).toBeGreaterThanOrEqual(60_000 + WINDOW_MARGIN_MS);
	});

	test('late starts (a busy event loop) do not let the next minute take more', async () => {
		const throttle = new RequestThrottle(60);
		const starts: number[] = [];
		for (let i = 0; i < 61; i++) {
			const slot = throttle.acquire();
			await jest.advanceTimersByTimeAsync(i === 0 ? 0 : 1000);
			await slot;
			starts.push(Date.now());
			// Every tenth request leaves 300 ms late: nothing may catch up on the next minute.
			if (i % 10 === 0) await jest.advanceTimersByTimeAsync(300);
		}
		for (let i = 60; i < starts.length; i++) {
			expect(starts[i] - starts[i - 60]).toBeGreaterThan(60_000);
		}
	});

	test('rates above what the window remembers are only spaced', async () => {
		const throttle = new RequestThrottle(600_000); // one per 0.1 ms
		const starts = await startsOf(throttle, 3, 10);
		expect(starts[2] - starts[0]).toBeLessThanOrEqual(1);
	});
});

describe('RequestThrottle: an item waiting its turn', () => {
	test('a deadline that starts at the first slot is not refused for the queue in front, and starts with the slot', async () => {
		const throttle = new RequestThrottle(60); // one a second
		for (let i = 0; i < 10; i++) void throttle.acquire(); // ten requests of other items ahead
		const queued = new Deadline(3_000, undefined, Date.now, { startsAtFirstSlot: true });
		expect(queued.started).toBe(false);
		expect(queued.remainingMs()).toBe(3_000);
		const start = Date.now();
		const slot = throttle.acquire(queued);
		await jest.advanceTimersByTimeAsync(10 * spacingFor(60) + 1);
		await expect(slot).resolves.toBeUndefined();
		expectNear(Date.now() - start, 10 * spacingFor(60));
		expect(queued.started).toBe(true);
		expect(queued.remainingMs()).toBe(3_000);
		// A started deadline is still refused a slot beyond it.
		expect(await throttle.acquire(new Deadline(500))).toBe('deadline');
	});
});

describe('RequestThrottle: a cancelled run', () => {
	test('gives its booked slots back: the next caller waits only the spacing after the slots used', async () => {
		const throttle = new RequestThrottle(30); // one per 2 s
		const run = new AbortController();
		await throttle.acquire(new Deadline(600_000, run.signal));
		const used = Date.now();
		// Two more requests of the run booked the next slots and wait for them.
		const booked = [1, 2].map(() => throttle.acquire(new Deadline(600_000, run.signal)));
		await jest.advanceTimersByTimeAsync(100);
		run.abort();
		await expect(Promise.all(booked)).resolves.toEqual(['cancelled', 'cancelled']);

		const starts = await startsOf(throttle, 1, 10_000);
		// The slot after the used one: none of the cancelled ones is waited out.
		expectNear(starts[0] - used, spacingFor(30));
	});

	test("keeps other callers' bookings: only the cancelled slot is given back", async () => {
		const throttle = new RequestThrottle(30);
		const run = new AbortController();
		await throttle.acquire();
		const used = Date.now();
		const other = throttle.acquire(); // books +2 s, never cancelled
		const cancelled = throttle.acquire(new Deadline(600_000, run.signal)); // books +4 s
		await jest.advanceTimersByTimeAsync(100);
		run.abort();
		await expect(cancelled).resolves.toBe('cancelled');

		const starts: number[] = [];
		const otherDone = other.then(() => starts.push(Date.now()));
		const next = throttle.acquire().then(() => starts.push(Date.now()));
		await jest.advanceTimersByTimeAsync(10_000);
		await Promise.all([otherDone, next]);
		// The other caller keeps its slot (+2 s); the next one takes the cancelled one's (+4 s).
		const [otherAt, nextAt] = starts.map((t) => t - used);
		expectNear(otherAt, spacingFor(30));
		expectNear(nextAt, 2 * spacingFor(30));
	});

	test("a cancelled slot leaves the minute's record", async () => {
		const throttle = new RequestThrottle(3); // 3 a minute, one per 20 s
		await throttle.acquire();
		const first = Date.now();
		const second = throttle.acquire();
		await jest.advanceTimersByTimeAsync(spacingFor(3) + 1);
		await second;
		const run = new AbortController();
		const cancelled = throttle.acquire(new Deadline(600_000, run.signal)); // books +40 s
		await jest.advanceTimersByTimeAsync(1_000);
		run.abort();
		await expect(cancelled).resolves.toBe('cancelled');

		const starts = await startsOf(throttle, 2, 200_000);
		// The third slot of the minute is free again; the fourth waits for the minute of the first.
		expectNear(starts[0] - first, 2 * spacingFor(3));
		expectNear(starts[1] - first, 60_000 + WINDOW_MARGIN_MS);
	});
});

describe('RequestThrottle: adapting to a shared budget', () => {
	test('a 429 is honoured (its Retry-After) and cuts the pace; those in flight in the same pause cut no more', async () => {
		const throttle = new RequestThrottle(300);
		const at = Date.now();
		throttle.throttled(2_000);
		expect(throttle.currentRate()).toBeCloseTo(300 * DECREASE_FACTOR);
		throttle.throttled(2_000);
		expect(throttle.currentRate()).toBeCloseTo(300 * DECREASE_FACTOR);
		const next = throttle.acquire().then(() => Date.now());
		await jest.advanceTimersByTimeAsync(3_000);
		expect((await next) - at).toBe(2_000);
	});

	test('the cut follows the share of its recent requests the service accepted, at most halving the pace', async () => {
		const someRefused = new RequestThrottle(300);
		await startsOf(someRefused, 4, 1_000);
		someRefused.throttled(1_000);
		expect(someRefused.currentRate()).toBeCloseTo(300 * (3 / 4) * DECREASE_FACTOR);
		const allRefused = new RequestThrottle(300);
		await allRefused.acquire();
		allRefused.throttled(1_000);
		expect(allRefused.currentRate()).toBeCloseTo(300 * 0.5 * DECREASE_FACTOR);
	});

	test('after the pause it climbs back to where contention showed, stays near it, then probes above to the configured rate', async () => {
		const throttle = new RequestThrottle(300);
		throttle.throttled(1_000);
		await jest.advanceTimersByTimeAsync(1_000 + 2_000); // the pause, then 2 s of climbing
		expect(throttle.currentRate()).toBeLessThan(300);
		// Another 429 within ACCEPTANCE_WINDOW_MS of the cut: the climb starts over, no lower.
		throttle.throttled(1_000);
		expect(throttle.currentRate()).toBeCloseTo(300 * DECREASE_FACTOR);
		await jest.advanceTimersByTimeAsync(1_000 + PLATEAU_SEC * 1000);
		expect(throttle.currentRate()).toBeCloseTo(300);
		// A quarter of its recent requests refused: where contention showed moves below too.
		await startsOf(throttle, 4, 1_000);
		throttle.throttled(1_000);
		const cut = 300 * (3 / 4) * DECREASE_FACTOR;
		const plateau = (300 * (3 / 4) * (1 + DECREASE_FACTOR)) / 2;
		expect(throttle.currentRate()).toBeCloseTo(cut);
		await jest.advanceTimersByTimeAsync(1_000 + (PLATEAU_SEC * 1000) / 2);
		expect(throttle.currentRate()).toBeGreaterThan(cut);
		expect(throttle.currentRate()).toBeLessThan(plateau);
		await jest.advanceTimersByTimeAsync((PLATEAU_SEC * 1000) / 2);
		expect(throttle.currentRate()).toBeCloseTo(plateau);
		await jest.advanceTimersByTimeAsync((PLATEAU_SEC * 1000) / 2);
		expect(throttle.currentRate()).toBeGreaterThan(plateau);
		await jest.advanceTimersByTimeAsync(600_000);
		expect(throttle.currentRate()).toBe(300); // never above what the credential says
	});

	test('429s in a row cut the pace once per ACCEPTANCE_WINDOW_MS, and it climbs back to what the service granted over the last minute', async () => {
		const throttle = new RequestThrottle(300);
		const starts = await startsOf(throttle, 100, 20_000); // 100 accepted in 20 s
		const paces = new Set<string>();
		for (let second = 0; second < 16; second++) {
			throttle.throttled(1_000); // a window full for a while: a 429 after every pause
			paces.add(throttle.currentRate().toFixed(6)); // the pace it holds to during the pause
			await jest.advanceTimersByTimeAsync(1_000);
		}
		// Cuts at 0, 5, 10 and 15 s; the 429s between start the climb over from the last cut.
		expect(paces.size).toBe(Math.ceil(16_000 / ACCEPTANCE_WINDOW_MS));
		const lastCutAt = Date.now() - 1_000;
		const granted = ((100 - 16) * 60_000) / (lastCutAt - starts[0]);
		expect(throttle.currentRate()).toBeLessThan(300 * DECREASE_FACTOR ** 3); // four cuts deep
		await jest.advanceTimersByTimeAsync(PLATEAU_SEC * 1000);
		expect(throttle.currentRate()).toBeGreaterThanOrEqual(granted * 0.999);
	});

	test("at a high rate the minute's record of sends stays bounded", async () => {
		let now = 0;
		const clock = () => (now += 0.5); // time runs on, so every slot is taken at once
		const throttle = new RequestThrottle(600_000, clock); // a contract far above the documented 300
		for (let sent = 0; sent < 7_000; sent++) expect(await throttle.acquire()).toBeUndefined();
		expect(now).toBeLessThan(60_000); // all within a minute
		// What the throttle keeps in memory: not every send of the last minute.
		expect((throttle as unknown as { sentAt: number[] }).sentAt.length).toBeLessThanOrEqual(6_000);
	});

	test('the pace in force spaces the slots', async () => {
		const throttle = new RequestThrottle(60);
		throttle.throttled(1_000);
		await jest.advanceTimersByTimeAsync(1_000);
		const starts = await startsOf(throttle, 2, 5_000);
		expect(starts[1] - starts[0]).toBeCloseTo(spacingFor(60 * DECREASE_FACTOR), -1);
	});

	test('first requests queued while the pace is cut follow it as it climbs back, not the cut pace', async () => {
		const throttle = new RequestThrottle(60); // one a second at most
		for (let i = 0; i < 8; i++) {
			await startsOf(throttle, 1, ACCEPTANCE_WINDOW_MS);
			throttle.throttled(1); // each request refused: down to the floor, 3 a minute
		}
		expect(throttle.currentRate()).toBeCloseTo(3);
		const starts: number[] = [];
		const from = Date.now();
		const items = Array.from({ length: 20 }, async () => {
			const first = new Deadline(600_000, undefined, Date.now, { startsAtFirstSlot: true });
			expect(await throttle.acquire(first)).toBeUndefined();
			starts.push(Date.now() - from);
		});
		await jest.advanceTimersByTimeAsync(600_000);
		await Promise.all(items);
		// Booked all at once at the floor's 20 s spacing, the last would start after 380 s; the
		// pace probes back up within a few plateaus, and the queue follows it.
		expect(Math.max(...starts)).toBeLessThan(150_000);
	});

	test('a lower configured rate caps the pace at once', () => {
		const throttle = new RequestThrottle(300);
		throttle.setRate(100);
		expect(throttle.currentRate()).toBe(100);
	});
});

describe('mapWithConcurrency: a released place', () => {
	test('an item that only waits lets the next item start', async () => {
		const started: number[] = [];
		const start = Date.now();
		let peakHolding = 0;
		let holding = 0;
		const out = mapWithConcurrency([0, 1, 2, 3, 4, 5], 2, async (_, i, slot) => {
			started.push(Date.now() - start);
			peakHolding = Math.max(peakHolding, ++holding);
			await new Promise((r) => setTimeout(r, 10)); // sending
			holding--;
			slot.release();
			slot.release(); // idempotent
			await new Promise((r) => setTimeout(r, 1_000)); // waiting
			return i;
		});
		await jest.advanceTimersByTimeAsync(2_000);
		expect(await out).toEqual([0, 1, 2, 3, 4, 5]);
		expect(peakHolding).toBe(2);
		// Without the release the last pair would start after 2 s of waiting.
		expect(started).toEqual([0, 0, 10, 10, 20, 20]);
	});

	test('a failure after a release still stops new items and is rethrown once the others end', async () => {
		const started: number[] = [];
		const run = mapWithConcurrency([0, 1, 2, 3], 1, async (_, i, slot) => {
			started.push(i);
			slot.release();
			await new Promise((r) => setTimeout(r, 100));
			if (i === 0) throw new Error('boom');
			return i;
		});
		const settled = expect(run).rejects.toThrow('boom');
		await jest.advanceTimersByTimeAsync(500);
		await settled;
		expect(started).toEqual([0, 1, 2, 3]);
	});
});

describe('LearnedCompletion', () => {
	test('starts at one second, grows fast on a miss, shrinks slowly, never below what was seen running', () => {
		const estimate = new LearnedCompletion();
		expect(estimate.firstCheckDelayMs()).toBe(1_000);
		estimate.observeFirstCheck(1_100, false);
		expect(estimate.firstCheckDelayMs()).toBe(2_200);
		// Items accepted together miss together: one doubling, not one per item.
		estimate.observeFirstCheck(1_150, false);
		expect(estimate.firstCheckDelayMs()).toBe(2_300);
		for (let i = 0; i < 500; i++) estimate.observeFirstCheck(2_400, true);
		const settled = estimate.firstCheckDelayMs();
		expect(settled).toBeGreaterThanOrEqual(1_150 * 1.25 * 0.999 ** 500);
		expect(settled).toBeLessThan(2_300);
	});

	test('stays within half a second and thirty seconds', () => {
		const estimate = new LearnedCompletion(50);
		expect(estimate.firstCheckDelayMs()).toBe(500);
		estimate.observeFirstCheck(60_000, false);
		expect(estimate.firstCheckDelayMs()).toBe(30_000);
	});

	test('with a fixed completion time, first checks settle above it and misses stay rare', () => {
		const completionMs = 3_000;
		const estimate = new LearnedCompletion();
		let misses = 0;
		for (let i = 0; i < 2_000; i++) {
			const at = estimate.firstCheckDelayMs();
			const done = at >= completionMs;
			if (!done) misses++;
			estimate.observeFirstCheck(at, done);
		}
		expect(misses).toBeLessThanOrEqual(2_000 * 0.01);
	});
});
