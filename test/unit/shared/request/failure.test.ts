import { fromRequestError, parseRetryAfter } from '../../../../nodes/shared/request/failure';

describe('fromRequestError: what n8n threw, read once', () => {
	test('reads status, headers and body through n8n and axios wrappers', () => {
		const axiosLike = {
			message: 'Request failed',
			response: { status: 429, headers: { 'retry-after': '3' }, data: { message: 'slow down' } },
		};
		const wrapped = {
			message: 'The service is receiving too many requests',
			httpCode: '429',
			cause: axiosLike,
		};
		const problem = fromRequestError(wrapped);
		expect(problem.kind).toBe('status');
		expect(problem.details).toMatchObject({
			status: 429,
			headers: { 'retry-after': '3' },
			body: { message: 'slow down' },
		});
	});

	test('recognises network failures', () => {
		expect(
			fromRequestError({
				message: 'x',
				cause: { message: 'read ECONNRESET', code: 'ECONNRESET' },
			}).details.networkCode,
		).toBe('ECONNRESET');
		expect(fromRequestError(new Error('socket hang up')).details.networkCode).toBe('ECONNRESET');
		expect(fromRequestError({ message: 'bad', httpCode: '400' }).kind).toBe('status');
		// n8n 1.x: a NodeApiError with the code only in httpCode and n8n's own sentence.
		expect(
			fromRequestError({
				message: 'The connection to the server was closed unexpectedly, perhaps it is offline.',
				httpCode: 'ECONNRESET',
			}).details.networkCode,
		).toBe('ECONNRESET');
	});

	test('Retry-After as seconds or as an HTTP date', () => {
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(parseRetryAfter('2', now)).toBe(2000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
	});
});
