import type { z, ZodTypeAny } from 'zod';

import { HttpProblem, isReadable } from './failure';

/** What comes back: a body read with a cap, JSON no deeper than a bound, the documented shape. */

/** Largest successful answer read: more than any documented page or transaction needs. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** Of an error answer only this much is read: enough for any message, never a flood. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Far deeper JSON would reach the output and break n8n's recursive saving of the execution. */
export const MAX_JSON_DEPTH = 100;

export interface BodyText {
	text: string;
	truncated: boolean;
	bytes: number;
}

/** A stream is destroyed past `limit` or on abort: an endless answer costs at most `limit`. */
export async function readBody(
	data: unknown,
	limit: number,
	signal?: AbortSignal,
): Promise<BodyText> {
	if (data === undefined || data === null) return { text: '', truncated: false, bytes: 0 };
	if (!isReadable(data)) {
		const text =
			typeof data === 'string' || Buffer.isBuffer(data) ? String(data) : JSON.stringify(data);
		const kept = text.slice(0, limit);
		return { text: kept, truncated: kept !== text, bytes: Buffer.byteLength(kept) };
	}
	const chunks: Buffer[] = [];
	let size = 0;
	const stop = () => data.destroy();
	let broke = false;
	signal?.addEventListener('abort', stop, { once: true });
	try {
		for await (const chunk of data) {
			chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
			size += chunks[chunks.length - 1].length;
			if (size > limit) break;
		}
	} catch {
		broke = true;
	} finally {
		signal?.removeEventListener('abort', stop);
		if (size > limit) data.destroy();
	}
	if (signal?.aborted) throw new HttpProblem('timeout', 'the answer did not arrive in time');
	if (broke) throw new HttpProblem('network', 'the connection broke while reading the answer');
	const bytes = Math.min(size, limit);
	return { text: Buffer.concat(chunks, bytes).toString('utf8'), truncated: size > limit, bytes };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b|^text\/json\b/i;

export function excerpt(text: string, length = 200): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > length ? `${line.slice(0, length)}…` : line;
}

function unexpectedAnswer(status: number, contentType: string, text: string, why?: string) {
	const type = contentType.split(';')[0].trim() || 'no content type';
	const shown = text.trim() ? `: ${excerpt(text)}` : ': empty body';
	const words = `unexpected answer (HTTP ${status}, ${type})${why ? `, ${why}` : ''}${shown}`;
	return new HttpProblem('unexpected', words, { status, body: text });
}

/** Read without parsing, so any depth costs no stack; JSON.parse checks the balance. */
export function nestingDepth(text: string, limit = Infinity): number {
	let depth = 0;
	let deepest = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x22) {
			i = closingQuote(text, i);
			if (i < 0) return deepest;
		} else if (c === 0x5b || c === 0x7b) {
			deepest = Math.max(deepest, ++depth);
			if (deepest > limit) return deepest;
		} else if (c === 0x5d || c === 0x7d) {
			depth--;
		}
	}
	return deepest;
}

function closingQuote(text: string, open: number): number {
	let at = open;
	for (;;) {
		at = text.indexOf('"', at + 1);
		if (at < 0) return -1;
		let backslashes = 0;
		while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
		if (backslashes % 2 === 0) return at;
	}
}

export function jsonOf(
	status: number,
	contentType: string,
	text: string,
	{ allowEmpty = false }: { allowEmpty?: boolean } = {},
): unknown {
	if (!text.trim() && allowEmpty) return undefined;
	if (!text.trim() || (contentType && !JSON_TYPE.test(contentType))) {
		throw unexpectedAnswer(status, contentType, text);
	}
	const parsed = parseJson(text);
	if ('why' in parsed) throw unexpectedAnswer(status, contentType, text, parsed.why);
	return parsed.json;
}

export function errorBodyOf(text: string): unknown {
	if (!text.trim()) return undefined;
	const parsed = parseJson(text);
	return 'json' in parsed ? parsed.json : text;
}

/** Some servers put a byte-order mark before their JSON. */
function parseJson(text: string): { json: unknown } | { why: string } {
	const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	if (nestingDepth(json, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
		return { why: `JSON nested more than ${MAX_JSON_DEPTH} levels deep` };
	}
	try {
		return { json: JSON.parse(json) as unknown };
	} catch {
		return { why: 'not valid JSON' };
	}
}

export function documentedAnswer<S extends ZodTypeAny>(
	answer: { status: number; contentType: string; body: unknown },
	schema: S,
	what: string,
): z.output<S> {
	const result = schema.safeParse(answer.body);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const where = issuePath(issue.path);
	const why = `not ${what} (${where ? `${where}: ` : ''}${issueMessage(issue)})`;
	throw unexpectedAnswer(answer.status, answer.contentType, JSON.stringify(answer.body) ?? '', why);
}

export function issuePath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>(
		(acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
		'',
	);
}

const TYPE_WORDS: Record<string, string> = {
	string: 'text',
	number: 'a number',
	boolean: 'true or false',
	object: 'an object',
	array: 'a list',
	integer: 'a whole number',
};

/** zod's own wording (3.25: "Required", "Expected …"; 4: "Invalid input: …", "Invalid option: …"). */
const ZOD_DEFAULT = /^(Required$|Expected |Invalid input|Invalid option|Invalid enum value)/;

/** Only zod's default messages are put in the package's words: those the schemas set stay. */
export function issueMessage(issue: {
	code: string;
	message: string;
	expected?: unknown;
	received?: unknown;
	options?: unknown;
	values?: unknown;
}): string {
	if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
	if (issue.code === 'invalid_type') {
		const missing = issue.received === 'undefined' || /received undefined$/.test(issue.message);
		if (missing) return 'is required';
		const expected = TYPE_WORDS[String(issue.expected)] ?? String(issue.expected);
		return `must be ${expected}`;
	}
	const options = issue.options ?? issue.values;
	if (Array.isArray(options)) return `must be one of ${options.map(String).join(', ')}`;
	return issue.message;
}
