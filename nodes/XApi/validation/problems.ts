// How problems are worded, for people who do not write code, the same under zod 3.25 and 4.
export const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

function describeValue(value: unknown): string {
	if (typeof value === 'string') return value === '' ? 'empty text' : `the text ${quote(value)}`;
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return `the value ${value}`;
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;
/** Null, missing and quoted values get their own wording, for people who do not write code. */
export function wrongKind(expected: string, value: unknown): string {
	if (value === undefined) return `is required but missing; expected ${expected}`;
	if (value === null) return `must not be null: remove the property or give it ${expected}`;
	const message = `must be ${expected}, but is ${describeValue(value)}`;
	if (expected === 'a number' && typeof value === 'string' && NUMBER_TEXT.test(value))
		return `${message} (write the number without quotes)`;
	if (expected === 'true or false' && (value === 'true' || value === 'false'))
		return `${message} (write ${value} without quotes)`;
	return message;
}

export function caseHint(value: unknown, allowed: readonly string[]): string | undefined {
	const lower = typeof value === 'string' ? value.toLowerCase() : undefined;
	return allowed.find((candidate) => candidate.toLowerCase() === lower && candidate !== value);
}

export function listOf(values: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
	const quoted = values.map((value) => `"${value}"`);
	if (quoted.length <= 1) return quoted.join('');
	return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}

/** Allowed values are case sensitive (xAPI-Data 2.2.s4.b1.b6). */
export function notAllowed(value: unknown, allowed: readonly string[]): string {
	if (value === undefined) return `is required and must be ${listOf(allowed)}`;
	if (typeof value !== 'string') return wrongKind(`text (${listOf(allowed)})`, value);
	const hint = caseHint(value, allowed);
	if (hint) return `${quote(value)} is not allowed: values are case sensitive, write "${hint}"`;
	return `must be ${listOf(allowed)}, but is ${quote(value)}`;
}

/** The same words for every issue zod raises itself: zod 3.25 reads `errorMap`, zod 4 `error`. */
export const says = (message: (value: unknown) => string) => ({
	errorMap: (_issue: unknown, context: { data: unknown }) => ({ message: message(context.data) }),
	error: (issue: { input?: unknown }) => message(issue.input),
});

export const wrong = (expected: string) => says((value) => wrongKind(expected, value));
