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
		return Object.keys(this.byField).length === 0;
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
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/** YYYY-MM-DD naming a real calendar day. */
export function isDateOnly(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	return match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** YYYY-MM-DD HH:MM:SS. */
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

/** A date in any of the forms clients send for assignment dates. */
export function isDateLike(value: unknown): value is string {
	if (isDateOnly(value) || isDateTime(value)) return true;
	return (
		typeof value === 'string' &&
		/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value) &&
		!Number.isNaN(Date.parse(value))
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

export function optionalText(body: JsonObject, field: string, errors: FieldErrors): string | null {
	const value = body[field];
	if (isAbsent(value)) return null;
	if (typeof value !== 'string') {
		errors.add(field, 'must be a string');
		return null;
	}
	return value;
}

export function optionalEnum<T extends string>(
	body: JsonObject,
	field: string,
	allowed: readonly T[],
	errors: FieldErrors,
): T | null {
	const value = body[field];
	if (isAbsent(value)) return null;
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		errors.add(field, `must be one of: ${allowed.join(', ')}`);
		return null;
	}
	return value as T;
}

export function optionalTextList(body: JsonObject, field: string, errors: FieldErrors): string[] {
	const value = body[field];
	if (isAbsent(value)) return [];
	if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
		errors.add(field, 'must be an array of strings');
		return [];
	}
	return value as string[];
}
