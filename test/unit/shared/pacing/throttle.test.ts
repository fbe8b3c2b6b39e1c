/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { clientThrottle } from '../../../../nodes/shared/pacing/throttle';
import { Deadline, pause } from '../../../../nodes/shared/pacing/time';
import { mapWithConcurrency } from '../../../../nodes/shared/items/pool';
import {
	RequestThrottle,
	concurrencyFor,
	spacingFor,
} from '../../../../nodes/shared/pacing/throttle';

// Time here is jest's fake clock: the tests check order and spacing, not how fast the machine is.
// Sends at the start of their slots (the throttle places each at random early in its slot).
beforeEach(() => {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

describe('RequestThrottle', () => {
	test('spaces starts by a minute and its margin / requestsPerMinute', async () => {
		const throttle = new RequestThrottle(1200); // one per 50 ms
		const starts: number[] = [];
		const all = Promise.all(
			Array.from({ length: 5 }, async () => {
				await throttle.acquire();
				starts.push(Date.now());
			}),
		);
		await jest.advanceTimersByTimeAsync(1_000);
		await all;
		// 50 ms and a fifth, a fraction a timer rounds to the next millisecond.
		expect(spacingFor(1200)).toBeCloseTo(50.21, 2);
		expect(starts.map((t) => t - starts[0])).toEqual([0, 51, 101, 151, 201]);
	});

	test('a pause holds back requests that already had a slot', async () => {
		const throttle = new RequestThrottle(6000);
		await throttle.acquire();
		let startedAt: number | undefined;
		const waiting = throttle.acquire().then(() => (startedAt = Date.now()));
		const pausedAt = Date.now();
		throttle.holdAll(300);
		await jest.advanceTimersByTimeAsync(1_000);
		await waiting;
		expect(startedAt! - pausedAt).toBeGreaterThanOrEqual(300);
	});

	test('refuses a slot beyond the deadline, and stops waiting when cancelled', async () => {
		const throttle = new RequestThrottle(60); // one per second
		await throttle.acquire();
		expect(await throttle.acquire(new Deadline(500))).toBe('deadline');
		const controller = new AbortController();
		const waiting = throttle.acquire(new Deadline(60_000, controller.signal));
		controller.abort();
		await jest.advanceTimersByTimeAsync(1_000);
		await expect(waiting).resolves.toBe('cancelled');
	});

	test('executions take turns: one item of a second execution is not queued behind a bulk run', async () => {
		const throttle = new RequestThrottle(600); // one per 100 ms
		const bulk = new AbortController();
		const webhook = new AbortController();
		const bulkStarts: number[] = [];
		const bulkRun = Promise.all(
			Array.from({ length: 100 }, async () => {
				const deadline = new Deadline(600_000, bulk.signal, Date.now, { startsAtFirstSlot: true });
				expect(await throttle.acquire(deadline)).toBeUndefined();
				bulkStarts.push(Date.now());
			}),
		);
		await jest.advanceTimersByTimeAsync(3_000);
		const askedAt = Date.now();
		const webhookDeadline = new Deadline(60_000, webhook.signal, Date.now, {
			startsAtFirstSlot: true,
		});
		let webhookStart = 0;
		const single = throttle.acquire(webhookDeadline).then(() => (webhookStart = Date.now()));
		await jest.advanceTimersByTimeAsync(15_000);
		await Promise.all([bulkRun, single]);
		// First come first served would have put it after the ~70 bulk items still waiting (7 s).
		expect(webhookStart - askedAt).toBeLessThanOrEqual(2_500);
		expect(bulkStarts.filter((t) => t > askedAt && t < webhookStart).length).toBeLessThanOrEqual(
			25,
		);
		// The bulk run alone kept the whole pace: starts a slot (100.4 ms) apart, on whole milliseconds.
		const gaps = bulkStarts.slice(1).map((t, i) => t - bulkStarts[i]);
		expect(gaps.filter((gap) => gap > Math.ceil(spacingFor(600))).length).toBeLessThanOrEqual(1);
	});

	test("a second execution's later requests (its checks) wait their turn, not a bulk run's bookings", async () => {
		const throttle = new RequestThrottle(300); // one per 200.8 ms
		const startedAt = Date.now();
		const bulk = new AbortController();
		const starts: number[] = [];
		let stop = false;
		// 15 items in flight, each a write then two checks: the checks' deadlines have started.
		const bulkRun = Promise.all(
			Array.from({ length: 15 }, async () => {
				while (!stop) {
					const deadline = new Deadline(600_000, bulk.signal, Date.now, {
						startsAtFirstSlot: true,
					});
					for (let request = 0; request < 3 && !stop; request++) {
						expect(await throttle.acquire(deadline)).toBeUndefined();
						starts.push(Date.now());
						await pause(50);
					}
				}
			}),
		);
		await jest.advanceTimersByTimeAsync(15_000);
		const waits: number[] = [];
		const hire = (async () => {
			const deadline = new Deadline(60_000, new AbortController().signal, Date.now, {
				startsAtFirstSlot: true,
			});
			for (let request = 0; request < 3; request++) {
				const askedAt = Date.now();
				expect(await throttle.acquire(deadline)).toBeUndefined();
				starts.push(Date.now());
				waits.push(Date.now() - askedAt);
				await pause(1_000);
			}
		})();
		await jest.advanceTimersByTimeAsync(20_000);
		await hire;
		stop = true;
		await jest.advanceTimersByTimeAsync(5_000);
		await bulkRun;
		// Booked behind the bulk run, each would wait its 15 bookings: 3 s.
		expect(Math.max(...waits)).toBeLessThanOrEqual(1_000);
		// Every slot of the 25 s around the hire was used, none closer than the pace allows.
		const around = starts
			.map((t) => t - startedAt)
			.filter((t) => t >= 10_000 && t < 35_000)
			.sort((a, b) => a - b);
		expect(around.length).toBeGreaterThanOrEqual(Math.floor((0.99 * 25_000) / spacingFor(300)));
		const gaps = around.slice(1).map((t, i) => t - around[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(Math.floor(spacingFor(300)));
	});

	test('one throttle per client for the whole process, at the lowest rate its credentials ask for', () => {
		const a = clientThrottle('https://x.test|client-k', 'credential-1', 300);
		const b = clientThrottle('https://x.test|client-k', 'credential-2', 100);
		expect(b.throttle).toBe(a.throttle);
		expect(b.requestsPerMinute).toBe(100);
		expect(clientThrottle('https://x.test|client-k', 'credential-1', 300).requestsPerMinute).toBe(
			100,
		);
		expect(clientThrottle('https://x.test|client-k', 'credential-2', 600).requestsPerMinute).toBe(
			300,
		);
		expect(clientThrottle('https://x.test|other', 'credential-1', 300).throttle).not.toBe(
			a.throttle,
		);
	});

	test('keeps enough items in flight to cover three seconds of latency', () => {
		expect(concurrencyFor(300)).toBe(15);
		expect(concurrencyFor(60)).toBe(3);
		expect(concurrencyFor(1_000_000)).toBe(200);
	});
});

describe('mapWithConcurrency', () => {
	test('keeps input order and the concurrency bound', async () => {
		let inFlight = 0;
		let peak = 0;
		const out = mapWithConcurrency([30, 5, 20, 1, 10, 2], 3, async (ms, i) => {
			peak = Math.max(peak, ++inFlight);
			await new Promise((r) => setTimeout(r, ms));
			inFlight--;
			return i;
		});
		await jest.advanceTimersByTimeAsync(100);
		expect(await out).toEqual([0, 1, 2, 3, 4, 5]);
		expect(peak).toBe(3);
	});

	test('after a failure starts nothing new, lets running tasks finish, then rethrows', async () => {
		const started: number[] = [];
		const finished: number[] = [];
		const run = mapWithConcurrency([0, 1, 2, 3, 4], 2, async (_, i) => {
			started.push(i);
			await new Promise((r) => setTimeout(r, i === 1 ? 40 : 5));
			if (i === 0) throw new Error('boom');
			finished.push(i);
		});
		const settled = expect(run).rejects.toThrow('boom');
		await jest.advanceTimersByTimeAsync(100);
		await settled;
		expect(started).toEqual([0, 1]);
		expect(finished).toEqual([1]);
	});

	test('once the signal aborts, no new task starts', async () => {
		const controller = new AbortController();
		const started: number[] = [];
		const run = mapWithConcurrency(
			[0, 1, 2, 3],
			1,
			async (_, i) => {
				started.push(i);
				if (i === 1) controller.abort();
				return i;
			},
			controller.signal,
		);
		expect(await run).toEqual([0, 1, undefined, undefined]);
		expect(started).toEqual([0, 1]);
	});
});

describe('pause', () => {
	test('a cancelled wait ends at once', async () => {
		const controller = new AbortController();
		const waiting = pause(60_000, controller.signal);
		controller.abort();
		await expect(waiting).resolves.toBe(false);
	});
});
