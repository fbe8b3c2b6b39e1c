import type { IDataObject } from 'n8n-workflow';
import type { ZodTypeAny } from 'zod';
import { z } from 'zod';

import {
	flexibleDate,
	flexibleDateTime,
	httpUrl,
	listOfStrings,
	positiveAmount,
	safeId,
	typeMessages,
} from '../../shared/items/input';

/** The course fields, declared once (the form half is actions/common/form.ts). */
export interface CourseField {
	param: string;
	api: string;
	/** Top-level required fields and prices sit on the form itself; the rest in Additional Fields. */
	place: 'top' | 'additional';
	label: string;
	/** Checks the form value and turns it into the body value. Empty values never reach it. */
	schema: ZodTypeAny;
	/** The body value from a catalog listing item, if the documented listing carries it. */
	fromListing?: (course: IDataObject) => unknown;
	/** Only upsert offers it (archive sets `status` itself). */
	upsertOnly?: boolean;
}

const text = z.string(typeMessages(undefined, 'must be text'));

const present = (value: unknown): boolean =>
	value !== undefined &&
	value !== null &&
	value !== '' &&
	!(Array.isArray(value) && value.length === 0);

/** Ids from a listing's groups/channels: their shape is undocumented, so only clear ids are taken. */
function idsFrom(value: unknown): string[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const ids: string[] = [];
	for (const entry of value) {
		const id =
			typeof entry === 'string' || typeof entry === 'number'
				? entry
				: entry && typeof entry === 'object'
					? (entry as IDataObject).id
					: undefined;
		if (typeof id !== 'string' && typeof id !== 'number') return undefined;
		ids.push(String(id));
	}
	return ids;
}

const price = z
	.object({ amount: positiveAmount, currency: z.enum(['INR', 'USD']) })
	.strict()
	.transform(({ amount, currency }) => ({ amount, currency }));

const language = z
	.object({
		languageCode: text
			.trim()
			.regex(/^[A-Za-z]{2}$/, 'must be a two-letter language code such as en'),
		title: text.optional(),
		url: httpUrl.optional().or(z.literal('')),
		description: text.optional(),
	})
	.strict()
	.transform((l) => {
		const entry: IDataObject = { language_code: l.languageCode.toLowerCase() };
		if (l.title) entry.title = l.title;
		if (l.url) entry.url = l.url;
		if (l.description) entry.description = l.description;
		return entry;
	});

export const COURSE_FIELDS: CourseField[] = [
	{
		param: 'externalId',
		api: 'external_id',
		place: 'top',
		label: 'External ID',
		schema: safeId,
		fromListing: (c) =>
			c.external_id ?? (c.additional_metadata as IDataObject | undefined)?.external_id,
	},
	{
		param: 'name',
		api: 'name',
		place: 'top',
		label: 'Name',
		schema: text.trim().min(1, 'is required'),
		fromListing: (c) => c.name,
	},
	{
		param: 'url',
		api: 'url',
		place: 'top',
		label: 'URL',
		schema: httpUrl,
		fromListing: (c) => c.url,
	},
	{
		param: 'prices',
		api: 'prices_data',
		place: 'top',
		label: 'Prices',
		schema: z
			.object({ price: z.array(price).optional() })
			.strict()
			.transform((p) => p.price ?? []),
		fromListing: (c) =>
			Array.isArray(c.prices_data) &&
			c.prices_data.every((p) => p && typeof p === 'object' && 'amount' in p && 'currency' in p)
				? (c.prices_data as IDataObject[]).map((p) => ({ amount: p.amount, currency: p.currency }))
				: undefined,
	},
	{
		param: 'channelIds',
		api: 'channel_ids',
		place: 'additional',
		label: 'Channel IDs',
		schema: listOfStrings,
		fromListing: (c) => idsFrom(c.channels),
	},
	{
		param: 'contentType',
		api: 'content_type',
		place: 'additional',
		label: 'Content Type',
		schema: z.enum(['article', 'course', 'video']),
	},
	{
		param: 'courseType',
		api: 'course_type',
		place: 'additional',
		label: 'Course Type',
		schema: z.enum(['article', 'course', 'video']),
	},
	{
		param: 'description',
		api: 'description',
		place: 'additional',
		label: 'Description',
		schema: text,
		fromListing: (c) => c.description,
	},
	{
		param: 'durationSec',
		api: 'duration_sec',
		place: 'additional',
		label: 'Duration (Seconds)',
		schema: z
			.number(typeMessages(undefined, 'must be a number'))
			.int('must be a whole number of seconds')
			.nonnegative('cannot be negative'),
		fromListing: (c) =>
			typeof c.duration_sec === 'number'
				? c.duration_sec
				: c.duration_sec === null
					? null
					: undefined,
	},
	{
		param: 'expirationDate',
		api: 'expiration_date',
		place: 'additional',
		label: 'Expiration Date',
		schema: flexibleDateTime,
	},
	{
		param: 'groupIds',
		api: 'group_ids',
		place: 'additional',
		label: 'Group IDs',
		schema: listOfStrings,
		fromListing: (c) => idsFrom(c.groups),
	},
	{
		param: 'imageUrl',
		api: 'image_url',
		place: 'additional',
		label: 'Image URL',
		schema: httpUrl,
		fromListing: (c) => {
			if (!Array.isArray(c.images)) return undefined;
			const first = (c.images as IDataObject[])[0];
			// No image listed: known to have none.
			return typeof first?.url === 'string' ? first.url : first === undefined ? null : undefined;
		},
	},
	{
		param: 'isPrivate',
		api: 'is_private',
		place: 'additional',
		label: 'Is Private',
		schema: z.boolean(typeMessages(undefined, 'must be true or false')),
		fromListing: (c) => (typeof c.is_private === 'boolean' ? c.is_private : undefined),
	},
	{
		param: 'languages',
		api: 'languages_attributes',
		place: 'additional',
		label: 'Languages',
		schema: z
			.object({ language: z.array(language).optional() })
			.strict()
			.transform((l) => l.language ?? []),
	},
	{
		param: 'level',
		api: 'level',
		place: 'additional',
		label: 'Level',
		schema: z.enum(['beginner', 'intermediate', 'advanced']),
	},
	{
		param: 'publishedAt',
		api: 'published_at',
		place: 'additional',
		label: 'Published At',
		schema: flexibleDate,
		// The listing gives an ISO timestamp; the platform's own date is its date part.
		fromListing: (c) =>
			typeof c.published_at === 'string' && /^\d{4}-\d{2}-\d{2}/.test(c.published_at)
				? c.published_at.slice(0, 10)
				: c.published_at === null
					? null
					: undefined,
	},
	{
		param: 'restrictedGroupIds',
		api: 'restricted_group_ids',
		place: 'additional',
		label: 'Restricted Group IDs',
		schema: listOfStrings,
		fromListing: (c) => idsFrom(c.restricted_groups),
	},
	{
		param: 'skills',
		api: 'skills',
		place: 'additional',
		label: 'Skills',
		schema: listOfStrings,
	},
	{
		param: 'status',
		api: 'status',
		place: 'additional',
		upsertOnly: true,
		label: 'Status',
		schema: z.enum(['active', 'archived']),
	},
	{
		param: 'tags',
		api: 'tags',
		place: 'additional',
		label: 'Tags',
		schema: listOfStrings,
		fromListing: (c) =>
			Array.isArray(c.tags) && c.tags.every((t) => typeof t === 'string') ? c.tags : undefined,
	},
];

export const TOP_FIELDS = COURSE_FIELDS.filter((f) => f.place === 'top');

export type CourseOperation = 'upsert' | 'archive';

export function additionalFieldsFor(operation: CourseOperation): CourseField[] {
	return COURSE_FIELDS.filter(
		(f) => f.place === 'additional' && (operation === 'upsert' || !f.upsertOnly),
	);
}

/** What the user gave, by API field: only non-empty values, each checked by its field. */
export type CourseValues = Record<string, unknown>;

/** Issue paths name the parameter: "additionalFields.publishedAt: …". Empty values are not given. */
export function courseValuesSchema(operation: CourseOperation, withTop: boolean) {
	const additional = additionalFieldsFor(operation);
	return z
		.object({
			top: z.record(z.string(), z.unknown()),
			additionalFields: z.record(z.string(), z.unknown()),
		})
		.transform((input, ctx) => {
			const values: CourseValues = {};
			const check = (field: CourseField, raw: unknown, path: string[]) => {
				// Required fields and prices are always checked; optional ones only when given.
				const always = field.place === 'top';
				if (!always && !present(raw)) return;
				const result = field.schema.safeParse(raw ?? (field.param === 'prices' ? {} : ''));
				if (!result.success) {
					for (const issue of result.error.issues)
						ctx.addIssue({ ...issue, path: [...path, ...issue.path] });
					return;
				}
				if (present(result.data) || field.param === 'prices') values[field.api] = result.data;
			};
			if (withTop)
				for (const field of TOP_FIELDS) check(field, input.top[field.param], [field.param]);
			const known = new Set(additional.map((f) => f.param));
			for (const name of Object.keys(input.additionalFields)) {
				if (!known.has(name)) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						path: ['additionalFields', name],
						message: 'is not a field of this operation',
					});
				}
			}
			for (const field of additional) {
				check(field, input.additionalFields[field.param], ['additionalFields', field.param]);
			}
			return values;
		});
}

export function courseBody(values: CourseValues): IDataObject {
	const body: IDataObject = {};
	for (const field of COURSE_FIELDS) {
		const value = values[field.api];
		// null: known to be empty (from the listing); not sent, and the platform keeps it empty.
		if (value !== undefined && value !== null)
			body[field.api] = value as IDataObject[keyof IDataObject];
	}
	// The documents require prices_data on every write: an empty list means free content.
	if (body.prices_data === undefined) body.prices_data = [];
	return body;
}

export function valuesFromListing(course: IDataObject): CourseValues {
	const values: CourseValues = {};
	for (const field of COURSE_FIELDS) {
		const value = field.fromListing?.(course);
		// A listed empty value (null, [], '') is known to be empty: carrying it over loses nothing.
		if (value !== undefined) values[field.api] = value;
	}
	return values;
}

export const LISTED_FIELDS = COURSE_FIELDS.filter((f) => f.fromListing).map((f) => f.api);

export const EXTERNAL_ID_FIELD = 'external_id';
export const STATUS_FIELD = 'status';

/** The platform replaces the whole course: optional fields neither side supplied are cleared. */
export function mergeWithListing(
	given: CourseValues,
	listed: CourseValues,
	operation: CourseOperation,
): { values: CourseValues; kept: string[]; cleared: string[] } {
	const values: CourseValues = { ...given };
	const kept: string[] = [];
	for (const [api, value] of Object.entries(listed)) {
		if (present(values[api])) continue;
		values[api] = value;
		kept.push(api);
	}
	const cleared = [...TOP_FIELDS, ...additionalFieldsFor(operation)]
		.map((f) => f.api)
		.filter((api) => api !== STATUS_FIELD && values[api] === undefined);
	return { values, kept, cleared };
}

export function labelOf(api: string): string {
	return COURSE_FIELDS.find((f) => f.api === api)?.label ?? api;
}
