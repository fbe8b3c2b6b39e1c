/** What a failed HTTP call tells us, whichever layer (axios, n8n) wrapped it. */
export interface HttpFailure {
	status?: number;
	retryAfterMs?: number;
	networkCode?: string;
	/** The answer's headers, when there was an answer. */
	headers?: Record<string, unknown>;
	body?: unknown;
	message: string;
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENOTFOUND',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ESOCKETTIMEDOUT',
	'ERR_CANCELED',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

interface ResponseLike {
	status?: number;
	statusCode?: number;
	headers?: Record<string, unknown>;
	data?: unknown;
	body?: unknown;
}

interface ErrorLike {
	message?: string;
	code?: string;
	httpCode?: string | null;
	response?: ResponseLike;
	cause?: ErrorLike;
	context?: { data?: unknown };
}

export function describeHttpFailure(error: unknown): HttpFailure {
	const chain: ErrorLike[] = [];
	let current = error as ErrorLike | undefined;
	while (current && typeof current === 'object' && chain.length < 5) {
		chain.push(current);
		current = current.cause;
	}
	const response = chain.map((e) => e.response).find((r) => r && typeof r === 'object');
	const statusText = chain.map((e) => e.httpCode).find((c) => c && /^\d{3}$/.test(c));
	const status =
		response?.status ?? response?.statusCode ?? (statusText ? Number(statusText) : undefined);
	// n8n 1.x wraps a network error in a NodeApiError that keeps the code only as `httpCode`.
	const code = chain
		.flatMap((e) => [e.code, e.httpCode])
		.find((c): c is string => typeof c === 'string' && NETWORK_CODES.has(c));
	const hangUp = chain.some((e) => /socket hang up|network error|aborted/i.test(e.message ?? ''));
	return {
		status,
		retryAfterMs: parseRetryAfter(response?.headers?.['retry-after']),
		headers: response?.headers,
		networkCode: status ? undefined : (code ?? (hangUp ? 'ECONNRESET' : undefined)),
		body: response?.data ?? response?.body ?? chain.map((e) => e.context?.data).find(Boolean),
		message: chain[0]?.message ?? String(error),
	};
}

/**
 * Retry-After is either delta-seconds or an HTTP date. Negative numbers and past dates come
 * back as 0; what is neither comes back undefined.
 */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^-?\d+(\.\d+)?$/.test(text)) return Math.max(0, Math.round(Number(text) * 1000));
	if (!/[a-z]/i.test(text)) return undefined;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isRetryableServerFailure(failure: HttpFailure): boolean {
	return (
		(failure.status !== undefined && failure.status >= 500) || failure.networkCode !== undefined
	);
}

const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was closed before an answer came',
	ECONNABORTED: 'the connection was aborted',
	ETIMEDOUT: 'the connection timed out',
	ESOCKETTIMEDOUT: 'the connection timed out',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'the connection timed out',
	EPIPE: 'the connection was closed while sending',
	EAI_AGAIN: 'the host name could not be resolved',
	ENOTFOUND: 'the host was not found',
	EHOSTUNREACH: 'the host could not be reached',
	ENETUNREACH: 'the network could not be reached',
	ERR_CANCELED: 'the request was aborted',
};

/**
 * Plain words for a network error code. Messages carry these rather than the codes because
 * n8n replaces any message that contains a code with its own generic sentence.
 */
export function networkWords(code: string): string {
	return NETWORK_WORDS[code] ?? 'a network error';
}
