/** Words for values and types, so that messages read well for people who do not write code. */

const MAX_SHOWN_TEXT = 60;

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

/** The message for a value of the wrong kind; null and missing values get their own wording. */
export function wrongKind(expected: string, value: unknown): string {
	if (value === undefined) return `is required but missing; expected ${expected}`;
	if (value === null) return `must not be null: remove the property or give it ${expected}`;
	return `must be ${expected}, but is ${describeValue(value)}`;
}

/** Names of the kinds of value a property can require, as a person would say them. */
export const KIND_NAMES: Record<string, string> = {
	string: 'text',
	number: 'a number',
	integer: 'a whole number',
	boolean: 'true or false',
	object: 'an object',
	array: 'a list',
};

/** A suggestion when a value differs from an allowed one only in letter case. */
export function caseHint(value: unknown, allowed: readonly string[]): string | undefined {
	if (typeof value !== 'string') return undefined;
	const lower = value.toLowerCase();
	return allowed.find((candidate) => candidate.toLowerCase() === lower && candidate !== value);
}

/** `"a", "b" or "c"` (or joined with "and"). */
export function listOf(values: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
	const quoted = values.map((value) => `"${value}"`);
	if (quoted.length <= 1) return quoted.join('');
	return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}
