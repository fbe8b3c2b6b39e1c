/** Validation of the body of POST /api/developer/v2/courses.json into complete course metadata. */

import {
	FieldErrors,
	isAbsent,
	isDateOnly,
	isDateTime,
	isHttpUrl,
	isJsonObject,
	optionalEnum,
	optionalText,
	optionalTextList,
	refuseUndocumentedFields,
	requireText,
	type JsonObject,
} from './validation';

export const CONTENT_TYPES = ['article', 'course', 'video'] as const;
export const COURSE_STATUSES = ['active', 'archived'] as const;
export const LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export const CURRENCIES = ['INR', 'USD'] as const;

export type ContentType = (typeof CONTENT_TYPES)[number];
export type CourseStatus = (typeof COURSE_STATUSES)[number];
export type Level = (typeof LEVELS)[number];
export type Currency = (typeof CURRENCIES)[number];
export type GroupId = number | string;

/** The body fields of section 2 ("Content (course) - request body fields"); nothing else. */
export const COURSE_BODY_FIELDS = [
	'name',
	'url',
	'external_id',
	'description',
	'content_type',
	'course_type',
	'is_private',
	'duration_sec',
	'published_at',
	'status',
	'level',
	'skills',
	'tags',
	'image_url',
	'languages_attributes',
	'prices_data',
	'expiration_date',
	'restricted_group_ids',
	'group_ids',
	'channel_ids',
] as const;

export const PRICE_FIELDS = ['amount', 'currency'] as const;
export const LANGUAGE_FIELDS = ['language_code', 'title', 'url', 'description'] as const;

/** Both parts are optional in the documents; a price holds the ones that were sent. */
export interface CoursePrice {
	amount?: number;
	currency?: Currency;
}

/** Every part is optional in the documents; a part that was not sent is null. */
export interface CourseLanguage {
	language_code: string | null;
	title: string | null;
	url: string | null;
	description: string | null;
}

/**
 * Everything one upsert sets. An update replaces all of it, so absent optional
 * fields are stored as cleared (null / [] / their default).
 */
export interface CourseMetadata {
	external_id: string;
	name: string;
	url: string;
	prices_data: CoursePrice[];
	description: string | null;
	content_type: ContentType;
	course_type: ContentType | null;
	is_private: boolean;
	duration_sec: number | null;
	published_at: string | null;
	status: CourseStatus;
	level: Level | null;
	skills: string[];
	tags: string[];
	image_url: string | null;
	languages_attributes: CourseLanguage[];
	expiration_date: string | null;
	restricted_group_ids: GroupId[];
	group_ids: GroupId[];
	channel_ids: GroupId[];
}

export type CourseInput =
	| { ok: true; metadata: CourseMetadata }
	| { ok: false; errors: FieldErrors };

function readPrices(body: JsonObject, errors: FieldErrors): CoursePrice[] {
	const value = body.prices_data;
	if (isAbsent(value)) {
		errors.add('prices_data', "can't be blank (send [] for free content)");
		return [];
	}
	if (!Array.isArray(value)) {
		errors.add('prices_data', 'must be an array');
		return [];
	}
	const prices: CoursePrice[] = [];
	value.forEach((entry: unknown, index) => {
		const field = `prices_data[${index}]`;
		if (!isJsonObject(entry)) {
			errors.add(field, 'must be an object (with amount and currency)');
			return;
		}
		const before = errors.count;
		refuseUndocumentedFields(entry, PRICE_FIELDS, errors, `${field}.`);
		const { amount, currency } = entry;
		const price: CoursePrice = {};
		if (!isAbsent(amount)) {
			if (typeof amount === 'number' && Number.isFinite(amount) && amount > 0)
				price.amount = amount;
			else errors.add(`${field}.amount`, 'must be a positive number');
		}
		if (!isAbsent(currency)) {
			if (typeof currency === 'string' && (CURRENCIES as readonly string[]).includes(currency))
				price.currency = currency as Currency;
			else errors.add(`${field}.currency`, `must be one of: ${CURRENCIES.join(', ')}`);
		}
		if (errors.count === before) prices.push(price);
	});
	return prices;
}

function readLanguages(body: JsonObject, errors: FieldErrors): CourseLanguage[] {
	const value = body.languages_attributes;
	if (isAbsent(value)) return [];
	if (!Array.isArray(value)) {
		errors.add('languages_attributes', 'must be an array');
		return [];
	}
	const languages: CourseLanguage[] = [];
	value.forEach((entry: unknown, index) => {
		const field = `languages_attributes[${index}]`;
		if (!isJsonObject(entry)) {
			errors.add(field, 'must be an object');
			return;
		}
		const before = errors.count;
		refuseUndocumentedFields(entry, LANGUAGE_FIELDS, errors, `${field}.`);
		const { language_code: code, title, url, description } = entry;
		// "string, 2 characters": two characters (code points), whatever they are.
		if (!isAbsent(code) && (typeof code !== 'string' || [...code].length !== 2))
			errors.add(`${field}.language_code`, 'must be a string of 2 characters');
		if (!isAbsent(title) && typeof title !== 'string')
			errors.add(`${field}.title`, 'must be a string');
		if (!isAbsent(url) && !isHttpUrl(url)) errors.add(`${field}.url`, 'must be an http(s) URL');
		if (!isAbsent(description) && typeof description !== 'string')
			errors.add(`${field}.description`, 'must be a string');
		if (errors.count !== before) return;
		languages.push({
			language_code: isAbsent(code) ? null : String(code),
			title: isAbsent(title) ? null : String(title),
			url: isAbsent(url) ? null : String(url),
			description: isAbsent(description) ? null : String(description),
		});
	});
	return languages;
}

function readIdList(body: JsonObject, field: string, errors: FieldErrors): GroupId[] {
	const value = body[field];
	if (isAbsent(value)) return [];
	const isId = (item: unknown) =>
		(typeof item === 'number' && Number.isInteger(item)) ||
		(typeof item === 'string' && item.trim() !== '');
	if (!Array.isArray(value) || !value.every(isId)) {
		errors.add(field, 'must be an array of ids (integers or strings)');
		return [];
	}
	return value as GroupId[];
}

function readBoolean(body: JsonObject, field: string, errors: FieldErrors): boolean {
	const value = body[field];
	if (isAbsent(value)) return false;
	if (typeof value !== 'boolean') {
		errors.add(field, 'must be true or false');
		return false;
	}
	return value;
}

function readDuration(body: JsonObject, errors: FieldErrors): number | null {
	const value = body.duration_sec;
	if (isAbsent(value)) return null;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
		errors.add('duration_sec', 'must be a non-negative integer');
		return null;
	}
	return value;
}

function readFormatted(
	body: JsonObject,
	field: string,
	isValid: (value: unknown) => boolean,
	format: string,
	errors: FieldErrors,
): string | null {
	const value = body[field];
	if (isAbsent(value)) return null;
	if (!isValid(value)) {
		errors.add(field, `must be a valid date in the form ${format}`);
		return null;
	}
	return value as string;
}

export function parseCourseInput(body: unknown): CourseInput {
	const errors = new FieldErrors();
	if (!isJsonObject(body)) {
		errors.add('base', 'the body must be a JSON object');
		return { ok: false, errors };
	}
	refuseUndocumentedFields(body, COURSE_BODY_FIELDS, errors);
	const name = requireText(body, 'name', errors);
	const url = requireText(body, 'url', errors);
	if (url !== undefined && !isHttpUrl(url)) errors.add('url', 'must be an http(s) URL');
	const externalId = requireText(body, 'external_id', errors);
	const imageUrl = optionalText(body, 'image_url', errors);
	if (imageUrl !== null && !isHttpUrl(imageUrl)) errors.add('image_url', 'must be an http(s) URL');

	const metadata: Omit<CourseMetadata, 'external_id' | 'name' | 'url'> = {
		prices_data: readPrices(body, errors),
		description: optionalText(body, 'description', errors),
		content_type: optionalEnum(body, 'content_type', CONTENT_TYPES, errors) ?? 'course',
		course_type: optionalEnum(body, 'course_type', CONTENT_TYPES, errors),
		is_private: readBoolean(body, 'is_private', errors),
		duration_sec: readDuration(body, errors),
		published_at: readFormatted(body, 'published_at', isDateOnly, 'YYYY-MM-DD', errors),
		status: optionalEnum(body, 'status', COURSE_STATUSES, errors) ?? 'active',
		level: optionalEnum(body, 'level', LEVELS, errors),
		skills: optionalTextList(body, 'skills', errors),
		tags: optionalTextList(body, 'tags', errors),
		image_url: imageUrl,
		languages_attributes: readLanguages(body, errors),
		expiration_date: readFormatted(
			body,
			'expiration_date',
			isDateTime,
			'YYYY-MM-DD HH:MM:SS',
			errors,
		),
		restricted_group_ids: readIdList(body, 'restricted_group_ids', errors),
		group_ids: readIdList(body, 'group_ids', errors),
		channel_ids: readIdList(body, 'channel_ids', errors),
	};
	if (!errors.isEmpty || name === undefined || url === undefined || externalId === undefined) {
		return { ok: false, errors };
	}
	return { ok: true, metadata: { external_id: externalId, name, url, ...metadata } };
}
