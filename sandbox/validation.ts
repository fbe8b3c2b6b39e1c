/** Field checks shared by the write endpoints, collecting Rails-style `errors: {field: [...]}`. */

import { jsonReply, type Reply } from './reply';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class FieldErrors {
	private readonly byField: Record<string, string[]> = {};

	add(field: string, message: string): void {
		(this.byField[field] ??= []).push(message);
	}

	get isEmpty(): boolean {
		return this.count === 0;
	}

	/** How many messages so far (to tell whether a part of the body added any). */
	get count(): number {
		return Object.values(this.byField).reduce((total, messages) => total + messages.length, 0);
	}

	toReply(): Reply {
		const summary = Object.entries(this.byField)
			.map(([field, messages]) => `${field} ${messages.join(', ')}`)
			.join('; ');
		return jsonReply(422, { message: `Validation failed: ${summary}`, errors: this.byField });
	}
}

/** Absent and null both mean "not given" for optional fields. */
export function isAbsent(value: unknown): value is undefined | null {
	return value === undefined || value === null;
}

function isRealDate(year: number, month: number, day: number): boolean {
	if (month < 1 || month > 12 || day < 1) return false;
	const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
	const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
	return day <= days;
}

/** YYYY-MM-DD naming a real calendar day, and nothing else (no time, no zone). */
export function isDateOnly(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	return match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** YYYY-MM-DD HH:MM:SS (one space, no T, no fraction, no zone), naming a real moment. */
export function isDateTime(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
	return (
		match !== null &&
		isDateOnly(match[1]) &&
		Number(match[2]) < 24 &&
		Number(match[3]) < 60 &&
		Number(match[4]) < 60
	);
}

export function isHttpUrl(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	try {
		const parsed = new URL(value);
		return parsed.protocol === 'http:' || parsed.protocol === 'https:';
	} catch {
		return false;
	}
}

export function isEmail(value: unknown): value is string {
	return typeof value === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export function requireText(
	body: JsonObject,
	field: string,
	errors: FieldErrors,
): string | undefined {
	const value = body[field];
	if (isAbsent(value) || value === '') {
		errors.add(field, "can't be blank");
		return undefined;
	}
	if (typeof value !== 'string') {
		errors.add(field, 'must be a string');
		return undefined;
	}
	if (value.trim() === '') {
		errors.add(field, "can't be blank");
		return undefined;
	}
	return value;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * Readers of a body's optional fields: `read` gives `fallback` when the field is absent or
 * null, else its value if `valid` holds, or the fallback with `message` added to the errors.
 */
export function optionalFields(body: JsonObject, errors: FieldErrors) {
	const read = <T>(
		field: string,
		fallback: T,
		valid: (value: unknown) => boolean,
		message: string,
	): T => {
		const value = body[field];
		if (isAbsent(value)) return fallback;
		if (valid(value)) return value as T;
		errors.add(field, message);
		return fallback;
	};
	return {
		read,
		text: (field: string) => read<string | null>(field, null, isText, 'must be a string'),
		oneOf: <T extends string>(field: string, allowed: readonly T[]) =>
			read<T | null>(
				field,
				null,
				(value) => (allowed as readonly unknown[]).includes(value),
				`must be one of: ${allowed.join(', ')}`,
			),
		textList: (field: string) =>
			read<string[]>(
				field,
				[],
				(value) => Array.isArray(value) && value.every(isText),
				'must be an array of strings',
			),
	};
}

/**
 * Refuses the fields the documents do not list for this object: the platform's reaction to
 * them is not documented, and a field that is silently dropped loses what it carried (a
 * misspelt `image` instead of `image_url` would otherwise go unnoticed).
 */
export function refuseUndocumentedFields(
	body: JsonObject,
	documented: readonly string[],
	errors: FieldErrors,
	prefix = '',
): void {
	for (const field of Object.keys(body)) {
		if (!documented.includes(field)) errors.add(`${prefix}${field}`, 'is not a documented field');
	}
}
