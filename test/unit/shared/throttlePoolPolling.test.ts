/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { pollUntil } from '../../../nodes/shared/polling';
import { mapWithConcurrency } from '../../../nodes/shared/pool';
import { RequestThrottle, concurrencyFor, throttleFor } from '../../../nodes/shared/throttle';

describe('RequestThrottle', () => {
	test('spaces starts by 60000 / requestsPerMinute', async () => {
		const throttle = new RequestThrottle(1200); // one per 50 ms
		const starts: number[] = [];
		await Promise.all(Array.from({ length: 5 }, async () => { await throttle.acquire(); starts.push(Date.now()); }));
		const span = starts[4] - starts[0];
		expect(span).toBeGreaterThanOrEqual(190);
	});

	test('a pause holds back requests that already had a slot', async () => {
		const throttle = new RequestThrottle(6000);
		await throttle.acquire();
		const waiting = throttle.acquire().then(() => Date.now());
		const pausedAt = Date.now();
		throttle.pause(300);
		expect((await waiting) - pausedAt).toBeGreaterThanOrEqual(290);
	});

	test('one throttle per client key for the whole process', () => {
		expect(throttleFor('k1', 300)).toBe(throttleFor('k1', 300));
		expect(throttleFor('k1', 300)).not.toBe(throttleFor('k2', 300));
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
		const out = await mapWithConcurrency([30, 5, 20, 1, 10, 2], 3, async (ms, i) => {
			peak = Math.max(peak, ++inFlight);
			await new Promise((r) => setTimeout(r, ms));
			inFlight--;
			return i;
		});
		expect(out).toEqual([0, 1, 2, 3, 4, 5]);
		expect(peak).toBe(3);
	});

	test('after a failure starts nothing new, lets running tasks finish, then rethrows', async () => {
		const started: number[] = [];
		const finished: number[] = [];
		await expect(
			mapWithConcurrency([0, 1, 2, 3, 4], 2, async (_, i) => {
				started.push(i);
				await new Promise((r) => setTimeout(r, i === 1 ? 40 : 5));
				if (i === 0) throw new Error('boom');
				finished.push(i);
			}),
		).rejects.toThrow('boom');
		expect(started).toEqual([0, 1]);
		expect(finished).toEqual([1]);
	});
});

describe('pollUntil', () => {
	test('waits with growing intervals and stops when done', async () => {
		const checks: number[] = [];
		const outcome = await pollUntil(async () => { checks.push(Date.now()); return { done: checks.length === 4, value: checks.length }; }, { timeoutMs: 5000, intervalMs: 20, factor: 2 });
		expect(outcome).toEqual({ done: true, value: 4, polls: 4 });
		const gaps = checks.slice(1).map((t, i) => t - checks[i]);
		expect(gaps[2]).toBeGreaterThan(gaps[0]);
	});

	test('never sleeps past the deadline', async () => {
		const started = Date.now();
		const outcome = await pollUntil(async () => ({ done: false, value: null }), { timeoutMs: 120, intervalMs: 1000 });
		expect(outcome.done).toBe(false);
		expect(Date.now() - started).toBeLessThan(400);
	});
});
