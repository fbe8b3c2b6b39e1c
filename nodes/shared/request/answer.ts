/** Reading and judging what a server answered, without believing it. */

import type { z, ZodTypeAny } from 'zod';

import { HttpProblem } from './failure';

/** Largest successful answer read: more than any documented page or transaction needs. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** Of an error answer only this much is read: enough for any message, never a flood. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

interface Readable {
	destroy(error?: Error): void;
	[Symbol.asyncIterator](): AsyncIterator<unknown>;
}

function isReadable(value: unknown): value is Readable {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as Readable).destroy === 'function' &&
		typeof (value as Readable)[Symbol.asyncIterator] === 'function'
	);
}

export interface BodyText {
	text: string;
	/** More was sent than `limit`; the rest was not read. */
	truncated: boolean;
}

/**
 * Reads an answer body (a stream, or whatever the request layer already made of it) up to
 * `limit` bytes. A stream is destroyed past the limit or when the signal aborts, so a huge or
 * endless answer costs at most `limit` bytes of memory and no more time than the deadline.
 */
export async function readBody(
	data: unknown,
	limit: number,
	signal?: AbortSignal,
): Promise<BodyText> {
	if (data === undefined || data === null) return { text: '', truncated: false };
	if (!isReadable(data)) {
		const text = Buffer.isBuffer(data)
			? data.toString('utf8')
			: typeof data === 'string'
				? data
				: JSON.stringify(data);
		return text.length > limit
			? { text: text.slice(0, limit), truncated: true }
			: { text, truncated: false };
	}
	const chunks: Buffer[] = [];
	let size = 0;
	let truncated = false;
	const stop = () => data.destroy();
	let failure: unknown;
	signal?.addEventListener('abort', stop, { once: true });
	try {
		for await (const chunk of data as AsyncIterable<unknown>) {
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			if (size + buffer.length > limit) {
				chunks.push(buffer.subarray(0, limit - size));
				truncated = true;
				break;
			}
			chunks.push(buffer);
			size += buffer.length;
		}
	} catch (error) {
		failure = error;
	} finally {
		signal?.removeEventListener('abort', stop);
		if (truncated) data.destroy();
	}
	if (signal?.aborted) throw new HttpProblem('timeout', 'the answer did not arrive in time');
	if (failure !== undefined)
		throw new HttpProblem('network', 'the connection broke while reading the answer');
	return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b|^text\/json\b/i;

/** The start of an answer, for a message: one line, at most `length` characters. */
export function excerpt(text: string, length = 200): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > length ? `${line.slice(0, length)}…` : line;
}

/** "unexpected answer (HTTP 200, text/html): <!doctype …" */
export function unexpectedAnswer(
	status: number,
	contentType: string,
	text: string,
	why?: string,
): HttpProblem {
	const type = contentType.split(';')[0].trim() || 'no content type';
	const shown = text.trim() ? `: ${excerpt(text)}` : ': empty body';
	return new HttpProblem(
		'unexpected',
		`unexpected answer (HTTP ${status}, ${type})${why ? `, ${why}` : ''}${shown}`,
		{ status, contentType, body: text },
	);
}

/**
 * The JSON an answer carries. Anything that is not JSON (an HTML login page, plain text, an
 * empty body) is an unexpected answer. `undefined` only when `allowEmpty` and the body is empty.
 */
export function jsonOf(
	status: number,
	contentType: string,
	text: string,
	{ allowEmpty = false }: { allowEmpty?: boolean } = {},
): unknown {
	if (!text.trim()) {
		if (allowEmpty) return undefined;
		throw unexpectedAnswer(status, contentType, text);
	}
	if (contentType && !JSON_TYPE.test(contentType))
		throw unexpectedAnswer(status, contentType, text);
	try {
		return JSON.parse(text) as unknown;
	} catch {
		throw unexpectedAnswer(status, contentType, text, 'not valid JSON');
	}
}

/** An error body as something to show: its JSON if it is JSON, else its text. */
export function errorBodyOf(text: string): unknown {
	if (!text.trim()) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/**
 * The answer's body if it has the documented shape; otherwise an unexpected-answer problem
 * naming what is missing, so that nonsense is never reported as success.
 */
export function documentedAnswer<S extends ZodTypeAny>(
	answer: { status: number; contentType: string; body: unknown },
	schema: S,
	what: string,
): z.output<S> {
	const result = schema.safeParse(answer.body);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const where = issuePath(issue.path);
	throw unexpectedAnswer(
		answer.status,
		answer.contentType,
		answer.body === undefined ? '' : JSON.stringify(answer.body),
		`not ${what} (${where ? `${where}: ` : ''}${issue.message})`,
	);
}

/** `additionalFields.prices[1].amount` from a zod issue path. */
export function issuePath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>(
		(acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
		'',
	);
}
