/** Validation of the body of POST /api/developer/v2/courses.json into complete course metadata. */

import {
	FieldErrors,
	isAbsent,
	isDateOnly,
	isDateTime,
	isHttpUrl,
	isJsonObject,
	optionalFields,
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

const isBoolean = (value: unknown) => typeof value === 'boolean';
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isId = (item: unknown) =>
	(typeof item === 'number' && Number.isInteger(item)) ||
	(typeof item === 'string' && item.trim() !== '');
const isIdList = (value: unknown) => Array.isArray(value) && value.every(isId);
const ID_LIST = 'must be an array of ids (integers or strings)';
const DATE = 'must be a valid date in the form';

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
	const optional = optionalFields(body, errors);
	const imageUrl = optional.text('image_url');
	if (imageUrl !== null && !isHttpUrl(imageUrl)) errors.add('image_url', 'must be an http(s) URL');

	const metadata: Omit<CourseMetadata, 'external_id' | 'name' | 'url'> = {
		prices_data: readPrices(body, errors),
		description: optional.text('description'),
		content_type: optional.oneOf('content_type', CONTENT_TYPES) ?? 'course',
		course_type: optional.oneOf('course_type', CONTENT_TYPES),
		is_private: optional.read('is_private', false, isBoolean, 'must be true or false'),
		duration_sec: optional.read<number | null>(
			'duration_sec',
			null,
			isCount,
			'must be a non-negative integer',
		),
		published_at: optional.read<string | null>(
			'published_at',
			null,
			isDateOnly,
			`${DATE} YYYY-MM-DD`,
		),
		status: optional.oneOf('status', COURSE_STATUSES) ?? 'active',
		level: optional.oneOf('level', LEVELS),
		skills: optional.textList('skills'),
		tags: optional.textList('tags'),
		image_url: imageUrl,
		languages_attributes: readLanguages(body, errors),
		expiration_date: optional.read<string | null>(
			'expiration_date',
			null,
			isDateTime,
			`${DATE} YYYY-MM-DD HH:MM:SS`,
		),
		restricted_group_ids: optional.read<GroupId[]>('restricted_group_ids', [], isIdList, ID_LIST),
		group_ids: optional.read<GroupId[]>('group_ids', [], isIdList, ID_LIST),
		channel_ids: optional.read<GroupId[]>('channel_ids', [], isIdList, ID_LIST),
	};
	if (!errors.isEmpty || name === undefined || url === undefined || externalId === undefined) {
		return { ok: false, errors };
	}
	return { ok: true, metadata: { external_id: externalId, name, url, ...metadata } };
}
