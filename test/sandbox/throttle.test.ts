import { ManualClock } from '../../sandbox/clock';
import { Throttle, THROTTLE_WINDOW_MS, type ThrottleShape } from '../../sandbox/throttle';
import type { Sandbox } from '../../sandbox/server';
import { COURSES, get, issueToken, requestToken, startTestSandbox } from './helpers';

describe('Throttle', () => {
	it.each([
		[300, 5],
		[120, 2],
		[60, 1],
		[30, 1],
	])('holds one second of requests at %i/min: capacity %i', (rate, capacity) => {
		const throttle = new Throttle(rate);
		const start = 1_000_000;
		for (let index = 0; index < capacity; index++)
			expect(throttle.take('c', start).allowed).toBe(true);
		expect(throttle.take('c', start).allowed).toBe(false);
	});

	it('says how long until the next token and does not charge refused requests', () => {
		const throttle = new Throttle(30); // one token every 2 s
		const start = 5_000;
		expect(throttle.take('c', start)).toEqual({ allowed: true });
		expect(throttle.take('c', start)).toMatchObject({ allowed: false, retryAfterSec: 2 });
		const refusal = throttle.take('c', start + 1500);
		expect(refusal).toMatchObject({ allowed: false, retryAfterSec: 1 });
		// Exactly, for the simulation's oracle (HTTP carries only the whole seconds).
		expect(!refusal.allowed && refusal.waitMs).toBeCloseTo(500);
		expect(throttle.take('c', start + 1999)).toMatchObject({ allowed: false, retryAfterSec: 1 });
		// Had the refusals cost tokens, the bucket would still be empty here.
		expect(throttle.take('c', start + 2000)).toEqual({ allowed: true });
	});

	it('keeps one bucket per client and none when the rate is 0', () => {
		const throttle = new Throttle(60);
		expect(throttle.take('a', 0).allowed).toBe(true);
		expect(throttle.take('b', 0).allowed).toBe(true);
		expect(throttle.take('a', 0).allowed).toBe(false);
		throttle.setRate(0);
		for (let index = 0; index < 50; index++) expect(throttle.take('a', 0).allowed).toBe(true);
	});

	it.each([[300], [120], [60], [7]])(
		'never grants more than %i requests in any 60 seconds, however they are spread',
		(rate) => {
			const throttle = new Throttle(rate);
			const granted: number[] = [];
			// A client asking every 50 ms for three minutes, far beyond the rate.
			for (let now = 0; now < 3 * THROTTLE_WINDOW_MS; now += 50) {
				if (throttle.take('c', now).allowed) granted.push(now);
			}
			let most = 0;
			for (let first = 0; first < granted.length; first++) {
				let last = first;
				while (last + 1 < granted.length && granted[last + 1] < granted[first] + THROTTLE_WINDOW_MS)
					last++;
				most = Math.max(most, last - first + 1);
			}
			expect(most).toBe(rate);
		},
	);

	it("refuses the request past the minute's allowance until the oldest leaves the window", () => {
		const throttle = new Throttle(300);
		let granted = 0;
		// One request every 200 ms is exactly the refill rate; the first second's burst is extra.
		for (let index = 0; index < 5; index++) if (throttle.take('c', 0).allowed) granted++;
		let now = 0;
		while (granted < 300) {
			now += 200;
			if (throttle.take('c', now).allowed) granted++;
		}
		expect(now).toBeLessThan(THROTTLE_WINDOW_MS);
		// The bucket has a token again, but 300 were granted in the last minute.
		now += 200;
		expect(throttle.take('c', now)).toMatchObject({
			allowed: false,
			retryAfterSec: Math.ceil((THROTTLE_WINDOW_MS - now) / 1000),
		});
		expect(throttle.take('c', THROTTLE_WINDOW_MS - 1).allowed).toBe(false);
		expect(throttle.take('c', THROTTLE_WINDOW_MS).allowed).toBe(true);
	});
});

/** When a client asking every `stepMs` for `forMs` is granted, from 0. */
function grants(throttle: Throttle, stepMs: number, forMs: number, from = 0): number[] {
	const granted: number[] = [];
	for (let now = from; now < from + forMs; now += stepMs) {
		if (throttle.take('c', now).allowed) granted.push(now);
	}
	return granted;
}

function mostWithin(granted: number[], windowMs: number): number {
	let most = 0;
	for (let first = 0, last = 0; last < granted.length; last++) {
		while (granted[last] - granted[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}

describe('Throttle shapes (throttleShape), at 300 a minute', () => {
	it.each([
		// The bucket's five at once, then one every 200 ms.
		['sliding-60s+bucket-1s', 300, 9],
		['sliding-60s', 300, 100],
		['fixed-60s', 300, 100],
		['fixed-6s', 300, 30],
		['bucket-1s', 304, 9],
	] as Array<[ThrottleShape, number, number]>)(
		'%s: a client asking every 10 ms gets %i in a minute, %i at most in one second',
		(shape, perMinute, perSecond) => {
			const granted = grants(new Throttle(300, shape), 10, THROTTLE_WINDOW_MS);
			expect(granted.length).toBe(perMinute);
			expect(mostWithin(granted, 1_000)).toBe(perSecond);
		},
	);

	it('fixed-6s: 30 per window; the window opens with the first request after the last closed', () => {
		const throttle = new Throttle(300, 'fixed-6s');
		expect(grants(throttle, 10, 6_000, 1_000)).toHaveLength(30);
		// Closed until 7 s: Retry-After is the time left, in whole seconds, at least 1.
		expect(throttle.take('c', 4_500)).toMatchObject({ allowed: false, retryAfterSec: 3 });
		expect(throttle.take('c', 6_999)).toMatchObject({ allowed: false, retryAfterSec: 1 });
		// Nothing asked until 9 s: the next window runs from 9 s to 15 s.
		expect(grants(throttle, 100, 3_000, 9_000)).toHaveLength(30);
		expect(throttle.take('c', 14_999).allowed).toBe(false);
		expect(throttle.take('c', 15_000).allowed).toBe(true);
	});

	it('fixed-60s: Retry-After says when the window closes, however far', () => {
		const throttle = new Throttle(300, 'fixed-60s');
		expect(grants(throttle, 50, 15_000)).toHaveLength(300);
		expect(throttle.take('c', 20_000)).toMatchObject({ allowed: false, retryAfterSec: 40 });
		expect(throttle.take('c', 60_000).allowed).toBe(true);
	});

	it('sliding-60s: Retry-After says when the oldest grant leaves the minute', () => {
		const throttle = new Throttle(300, 'sliding-60s');
		expect(grants(throttle, 100, 30_000)).toHaveLength(300);
		expect(throttle.take('c', 30_000)).toMatchObject({ allowed: false, retryAfterSec: 30 });
		expect(throttle.take('c', 60_000).allowed).toBe(true);
		expect(throttle.take('c', 60_050).allowed).toBe(false);
		expect(throttle.take('c', 60_100).allowed).toBe(true);
	});

	it('bucket-1s: five at once, then one every 200 ms, and a refusal takes no token', () => {
		const throttle = new Throttle(300, 'bucket-1s');
		expect(grants(throttle, 1, 5)).toHaveLength(5);
		expect(throttle.take('c', 100)).toMatchObject({ allowed: false, retryAfterSec: 1 });
		expect(throttle.take('c', 199).allowed).toBe(false);
		expect(throttle.take('c', 200).allowed).toBe(true);
	});

	it.each(['sliding-60s', 'fixed-60s', 'fixed-6s', 'bucket-1s'] as ThrottleShape[])(
		'%s: refused requests count against no window and take no token',
		(shape) => {
			const hammered = new Throttle(300, shape);
			const granted = grants(hammered, 1, THROTTLE_WINDOW_MS);
			expect(granted.length).toBeGreaterThanOrEqual(300);
			// A client asking only when it is granted meets the same throttle, now and later.
			const patient = new Throttle(300, shape);
			expect(granted.every((now) => patient.take('c', now).allowed)).toBe(true);
			const later = THROTTLE_WINDOW_MS;
			expect(grants(hammered, 1, later, later)).toEqual(grants(patient, 1, later, later));
		},
	);

	it('changing the shape starts every client afresh', () => {
		const throttle = new Throttle(300, 'fixed-60s');
		grants(throttle, 1, 300);
		expect(throttle.take('c', 400).allowed).toBe(false);
		throttle.setRate(300, 'bucket-1s');
		expect(throttle.take('c', 400).allowed).toBe(true);
	});
});

describe('throttled API', () => {
	const clock = new ManualClock();
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ rateLimitPerMinute: 120 }, clock);
	});
	beforeEach(() => {
		// A minute later, every bucket and window is full again.
		clock.advance(THROTTLE_WINDOW_MS);
		sandbox.reset();
	});
	afterAll(() => sandbox.close());

	it('answers 429 with Retry-After past a burst, then accepts again after that wait', async () => {
		const token = await issueToken(sandbox); // counts: the bucket of 2 has 1 left
		const statuses: number[] = [];
		let retryAfter: string | null = null;
		for (let index = 0; index < 5; index++) {
			const answer = await get(sandbox, COURSES, token);
			statuses.push(answer.status);
			if (answer.status === 429) {
				expect(answer.body).toEqual({ message: 'Too many requests' });
				retryAfter = answer.headers.get('retry-after');
			}
		}
		expect(statuses).toEqual([200, 429, 429, 429, 429]);
		expect(retryAfter).toMatch(/^\d+$/);
		const waitSec = Number(retryAfter);
		expect(waitSec).toBeGreaterThanOrEqual(1);

		clock.advance(waitSec * 1000);
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
	});

	it('counts the token endpoint against the client it names', async () => {
		expect((await requestToken(sandbox)).status).toBe(200);
		expect((await requestToken(sandbox)).status).toBe(200);
		const refused = await requestToken(sandbox);
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
		expect(sandbox.state().tokensIssued).toBe(2);

		// The same client's API calls share the bucket.
		clock.advance(500);
		const token = await issueToken(sandbox);
		expect((await get(sandbox, COURSES, token)).status).toBe(429);
	});

	it('counts a token request with a wrong secret, but not one naming an unknown client', async () => {
		expect((await requestToken(sandbox, { client_secret: 'wrong' })).status).toBe(401);
		expect((await requestToken(sandbox, { client_secret: 'wrong' })).status).toBe(401);
		expect((await requestToken(sandbox, { client_secret: 'wrong' })).status).toBe(429);
		for (let index = 0; index < 5; index++) {
			expect((await requestToken(sandbox, { client_id: 'someone-else' })).status).toBe(401);
		}
	});

	it('answers 429 without Retry-After when throttleRetryAfter is off', async () => {
		sandbox.configure({ throttleRetryAfter: false, throttleShape: 'fixed-60s' });
		try {
			const token = await issueToken(sandbox);
			for (let index = 0; index < 119; index++) await get(sandbox, COURSES, token);
			const refused = await get(sandbox, COURSES, token);
			expect(refused.status).toBe(429);
			expect(refused.headers.get('retry-after')).toBeNull();
		} finally {
			sandbox.configure({ throttleRetryAfter: true, throttleShape: 'sliding-60s+bucket-1s' });
		}
	});

	it('does not throttle the admin paths', async () => {
		for (let index = 0; index < 6; index++) {
			expect((await fetch(`${sandbox.url}/__sandbox/health`)).status).toBe(200);
		}
	});
});
