import { Throttle } from '../../sandbox/throttle';
import type { Sandbox } from '../../sandbox/server';
import { COURSES, get, issueToken, requestToken, sleep, startTestSandbox } from './helpers';

describe('Throttle (token bucket)', () => {
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
});

describe('throttled API', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ rateLimitPerMinute: 120 });
	});
	afterAll(() => sandbox.close());

	it('answers 429 with Retry-After past a burst, then accepts again after waiting', async () => {
		const token = await issueToken(sandbox);
		const statuses: number[] = [];
		let retryAfter: string | null = null;
		for (let index = 0; index < 6; index++) {
			const answer = await get(sandbox, COURSES, token);
			statuses.push(answer.status);
			if (answer.status === 429) {
				expect(answer.body).toEqual({ message: 'Too many requests' });
				retryAfter = answer.headers.get('retry-after');
			}
		}
		expect(statuses.slice(0, 2)).toEqual([200, 200]);
		expect(statuses.slice(2)).toEqual([429, 429, 429, 429]);
		expect(retryAfter).toMatch(/^\d+$/);
		const waitSec = Number(retryAfter);
		expect(waitSec).toBeGreaterThanOrEqual(1);

		await sleep(waitSec * 1000);
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
	});

	it('does not throttle the token endpoint or the admin paths', async () => {
		for (let index = 0; index < 6; index++) {
			expect((await requestToken(sandbox)).status).toBe(200);
			expect((await fetch(`${sandbox.url}/__sandbox/health`)).status).toBe(200);
		}
	});
});
