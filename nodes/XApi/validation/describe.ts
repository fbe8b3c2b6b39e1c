/** Words for values and types, so that messages read well for people who do not write code. */

const MAX_SHOWN_TEXT = 60;
const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;

export function quote(text: string): string {
	const shown = text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT)}…` : text;
	return JSON.stringify(shown);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "the text "abc"", "the number 5", "a list", "an object", "null" … */
export function describeValue(value: unknown): string {
	if (value === undefined) return 'missing';
	if (value === null) return 'null';
	if (typeof value === 'string') return value === '' ? 'empty text' : `the text ${quote(value)}`;
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return `the value ${value}`;
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** The message for a value of the wrong kind; null, missing and quoted values get their own wording. */
export function wrongKind(expected: string, value: unknown): string {
	if (value === undefined) return `is required but missing; expected ${expected}`;
	if (value === null) return `must not be null: remove the property or give it ${expected}`;
	const message = `must be ${expected}, but is ${describeValue(value)}`;
	if (expected === 'a number' && typeof value === 'string' && NUMBER_TEXT.test(value)) {
		return `${message} (write the number without quotes)`;
	}
	if (expected === 'true or false' && (value === 'true' || value === 'false')) {
		return `${message} (write ${value} without quotes)`;
	}
	return message;
}

export function caseHint(value: unknown, allowed: readonly string[]): string | undefined {
	if (typeof value !== 'string') return undefined;
	const lower = value.toLowerCase();
	return allowed.find((candidate) => candidate.toLowerCase() === lower && candidate !== value);
}

export function listOf(values: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
	const quoted = values.map((value) => `"${value}"`);
	if (quoted.length <= 1) return quoted.join('');
	return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}

/** The message for text outside a list of allowed values, which are case sensitive (xAPI-Data 2.2.s4.b1.b6). */
export function notAllowed(value: unknown, allowed: readonly string[]): string {
	if (value === undefined) return `is required and must be ${listOf(allowed)}`;
	if (typeof value !== 'string') return wrongKind(`text (${listOf(allowed)})`, value);
	const hint = caseHint(value, allowed);
	if (hint) return `${quote(value)} is not allowed: values are case sensitive, write "${hint}"`;
	return `must be ${listOf(allowed)}, but is ${quote(value)}`;
}
