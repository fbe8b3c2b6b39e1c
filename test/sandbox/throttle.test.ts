import { ManualClock } from '../../sandbox/clock';
import { Throttle, THROTTLE_WINDOW_MS } from '../../sandbox/throttle';
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
		expect(throttle.take('c', start)).toEqual({ allowed: false, retryAfterSec: 2 });
		expect(throttle.take('c', start + 1500)).toEqual({ allowed: false, retryAfterSec: 1 });
		expect(throttle.take('c', start + 1999)).toEqual({ allowed: false, retryAfterSec: 1 });
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
		expect(throttle.take('c', now)).toEqual({
			allowed: false,
			retryAfterSec: Math.ceil((THROTTLE_WINDOW_MS - now) / 1000),
		});
		expect(throttle.take('c', THROTTLE_WINDOW_MS - 1).allowed).toBe(false);
		expect(throttle.take('c', THROTTLE_WINDOW_MS).allowed).toBe(true);
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

	it('does not throttle the admin paths', async () => {
		for (let index = 0; index < 6; index++) {
			expect((await fetch(`${sandbox.url}/__sandbox/health`)).status).toBe(200);
		}
	});
});
