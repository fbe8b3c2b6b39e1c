import { backoffDelay, sendWithRetry } from '../../../nodes/shared/retry';

const failure = (status?: number, code?: string) => Object.assign(new Error(`failed ${status ?? code}`), { code, response: status ? { status, headers: {} } : undefined });
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

describe('sendWithRetry', () => {
	test('repeats 5xx and network failures when the request is safe to repeat', async () => {
		const answers = [failure(502), failure(undefined, 'ECONNRESET'), 'ok'];
		let calls = 0;
		const result = await sendWithRetry(async () => {
			const answer = answers[calls++];
			if (answer instanceof Error) throw answer;
			return answer;
		}, { safeToRepeat: true, ...fast });
		expect(result).toBe('ok');
		expect(calls).toBe(3);
	});

	test('never repeats a 5xx or network failure of a request that is not safe to repeat', async () => {
		let calls = 0;
		await expect(
			sendWithRetry(async () => {
				calls++;
				throw failure(500);
			}, { safeToRepeat: false, ...fast }),
		).rejects.toThrow('failed 500');
		expect(calls).toBe(1);
	});

	test('always repeats a 429, which was not processed', async () => {
		let calls = 0;
		const result = await sendWithRetry(async () => {
			if (calls++ < 2) throw failure(429);
			return 'ok';
		}, { safeToRepeat: false, ...fast });
		expect(result).toBe('ok');
	});

	test('gives up after maxAttempts and rethrows the last failure', async () => {
		let calls = 0;
		await expect(
			sendWithRetry(async () => {
				calls++;
				throw failure(503);
			}, { safeToRepeat: true, maxAttempts: 3, ...fast }),
		).rejects.toThrow('failed 503');
		expect(calls).toBe(3);
	});

	test('repeats a 401 only as often as the policy allows', async () => {
		let calls = 0;
		const always401 = async () => {
			calls++;
			throw failure(401);
		};
		await expect(sendWithRetry(always401, { safeToRepeat: false, ...fast })).rejects.toThrow('failed 401');
		expect(calls).toBe(1);
		calls = 0;
		await expect(sendWithRetry(always401, { safeToRepeat: false, maxUnauthorizedAttempts: 3, ...fast })).rejects.toThrow();
		expect(calls).toBe(3);
	});

	test('does not repeat other 4xx answers', async () => {
		let calls = 0;
		await expect(sendWithRetry(async () => { calls++; throw failure(404); }, { safeToRepeat: true, ...fast })).rejects.toThrow();
		expect(calls).toBe(1);
	});

	test('full-jitter backoff stays within its growing, capped ceiling', () => {
		for (let attempt = 0; attempt < 10; attempt++) {
			const delay = backoffDelay(attempt, 100, 2000);
			expect(delay).toBeGreaterThanOrEqual(0);
			expect(delay).toBeLessThanOrEqual(Math.min(2000, 100 * 2 ** attempt));
		}
	});
});
