import type { IDataObject, INodeProperties } from 'n8n-workflow';
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

/**
 * The course contract, declared once. Each field names its API field, its parameter, its form
 * control and help, how its value is checked and becomes the body value, and whether the
 * catalog listing returns it (and how to read it there). The upsert and archive forms, the
 * validation, the request body and the listing-to-body mapping are all derived from this
 * list; no course API field name is spelled anywhere else.
 */
export interface CourseField {
	/** Parameter name (the API name in camelCase, as the package's interface fixes it). */
	param: string;
	/** API field name in the request body. */
	api: string;
	/** Top-level required fields and prices sit on the form itself; the rest in Additional Fields. */
	place: 'top' | 'additional';
	/** The form control (its name is `param`). */
	form: Omit<INodeProperties, 'name'>;
	/** Checks the form value and turns it into the body value. Empty values never reach it. */
	schema: ZodTypeAny;
	/** The body value from a catalog listing item, if the documented listing carries it. */
	fromListing?: (course: IDataObject) => unknown;
	/** Only upsert offers it (archive sets `status` itself). */
	upsertOnly?: boolean;
}

const CONTENT_TYPES = [
	{ name: 'Article', value: 'article' },
	{ name: 'Course', value: 'course' },
	{ name: 'Video', value: 'video' },
];

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

const commaList = (label: string, effect: string): Omit<INodeProperties, 'name'> => ({
	displayName: label,
	type: 'string',
	default: '',
	description: `Comma-separated ${effect}`,
});

export const COURSE_FIELDS: CourseField[] = [
	{
		param: 'externalId',
		api: 'external_id',
		place: 'top',
		form: {
			displayName: 'External ID',
			type: 'string',
			required: true,
			default: '',
			description: 'Your own ID for the course. Sending an existing one updates that course.',
		},
		schema: safeId,
		fromListing: (c) =>
			c.external_id ?? (c.additional_metadata as IDataObject | undefined)?.external_id,
	},
	{
		param: 'name',
		api: 'name',
		place: 'top',
		form: { displayName: 'Name', type: 'string', required: true, default: '' },
		schema: text.trim().min(1, 'is required'),
		fromListing: (c) => c.name,
	},
	{
		param: 'url',
		api: 'url',
		place: 'top',
		form: {
			displayName: 'URL',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://learn.example.com/courses/onboarding',
		},
		schema: httpUrl,
		fromListing: (c) => c.url,
	},
	{
		param: 'prices',
		api: 'prices_data',
		place: 'top',
		form: {
			displayName: 'Prices',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add price',
			description: 'Leave empty for free content. Prices are replaced on every update.',
			options: [
				{
					displayName: 'Price',
					name: 'price',
					values: [
						{
							displayName: 'Amount',
							name: 'amount',
							type: 'string',
							default: '',
							placeholder: 'e.g. 49.99',
							description: 'A positive amount, such as 49.99',
						},
						{
							displayName: 'Currency',
							name: 'currency',
							type: 'options',
							options: [
								{ name: 'INR', value: 'INR' },
								{ name: 'USD', value: 'USD' },
							],
							default: 'USD',
						},
					],
				},
			],
		},
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
		form: commaList(
			'Channel IDs',
			'channel IDs. Channels not listed are removed from the content.',
		),
		schema: listOfStrings,
		fromListing: (c) => idsFrom(c.channels),
	},
	{
		param: 'contentType',
		api: 'content_type',
		place: 'additional',
		form: {
			displayName: 'Content Type',
			type: 'options',
			options: CONTENT_TYPES,
			default: 'course',
			description: 'What the content is; learners can filter search results by it',
		},
		schema: z.enum(['article', 'course', 'video']),
	},
	{
		param: 'courseType',
		api: 'course_type',
		place: 'additional',
		form: {
			displayName: 'Course Type',
			type: 'options',
			options: CONTENT_TYPES,
			default: 'course',
			description: "A second type the platform's samples send with the same values",
		},
		schema: z.enum(['article', 'course', 'video']),
	},
	{
		param: 'description',
		api: 'description',
		place: 'additional',
		form: { displayName: 'Description', type: 'string', typeOptions: { rows: 3 }, default: '' },
		schema: text,
		fromListing: (c) => c.description,
	},
	{
		param: 'durationSec',
		api: 'duration_sec',
		place: 'additional',
		form: {
			displayName: 'Duration (Seconds)',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
		},
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
		form: {
			displayName: 'Expiration Date',
			type: 'string',
			default: '',
			placeholder: '2027-12-31 23:59:59',
			description: 'When the content expires by itself, as YYYY-MM-DD HH:MM:SS',
		},
		schema: flexibleDateTime,
	},
	{
		param: 'groupIds',
		api: 'group_ids',
		place: 'additional',
		form: commaList('Group IDs', 'group IDs. Groups not listed are removed from the content.'),
		schema: listOfStrings,
		fromListing: (c) => idsFrom(c.groups),
	},
	{
		param: 'imageUrl',
		api: 'image_url',
		place: 'additional',
		form: {
			displayName: 'Image URL',
			type: 'string',
			default: '',
			description:
				'Linked, not downloaded. A missing or broken image is replaced by a stock image.',
		},
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
		form: {
			displayName: 'Is Private',
			type: 'boolean',
			default: false,
			description: 'Whether the content is private',
		},
		schema: z.boolean(typeMessages(undefined, 'must be true or false')),
		fromListing: (c) => (typeof c.is_private === 'boolean' ? c.is_private : undefined),
	},
	{
		param: 'languages',
		api: 'languages_attributes',
		place: 'additional',
		form: {
			displayName: 'Languages',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			description: "Language versions. Send none to use the source's default language.",
			options: [
				{
					displayName: 'Language',
					name: 'language',
					values: [
						{
							displayName: 'Language Code',
							name: 'languageCode',
							type: 'string',
							default: '',
							placeholder: 'en',
							description: 'Two-letter code',
						},
						{ displayName: 'Title', name: 'title', type: 'string', default: '' },
						{ displayName: 'URL', name: 'url', type: 'string', default: '' },
						{ displayName: 'Description', name: 'description', type: 'string', default: '' },
					],
				},
			],
		},
		schema: z
			.object({ language: z.array(language).optional() })
			.strict()
			.transform((l) => l.language ?? []),
	},
	{
		param: 'level',
		api: 'level',
		place: 'additional',
		form: {
			displayName: 'Level',
			type: 'options',
			options: [
				{ name: 'Beginner', value: 'beginner' },
				{ name: 'Intermediate', value: 'intermediate' },
				{ name: 'Advanced', value: 'advanced' },
			],
			default: 'beginner',
		},
		schema: z.enum(['beginner', 'intermediate', 'advanced']),
	},
	{
		param: 'publishedAt',
		api: 'published_at',
		place: 'additional',
		form: {
			displayName: 'Published At',
			type: 'string',
			default: '',
			placeholder: '2026-01-31',
			description: 'Publication date as YYYY-MM-DD',
		},
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
		form: commaList('Restricted Group IDs', 'IDs of the groups the content is restricted to'),
		schema: listOfStrings,
		fromListing: (c) => idsFrom(c.restricted_groups),
	},
	{
		param: 'skills',
		api: 'skills',
		place: 'additional',
		form: commaList('Skills', 'skills; content is searchable by them'),
		schema: listOfStrings,
	},
	{
		param: 'status',
		api: 'status',
		place: 'additional',
		upsertOnly: true,
		form: {
			displayName: 'Status',
			type: 'options',
			options: [
				{ name: 'Active', value: 'active' },
				{ name: 'Archived', value: 'archived' },
			],
			default: 'active',
			description: 'Archived content cannot be made active again',
		},
		schema: z.enum(['active', 'archived']),
	},
	{
		param: 'tags',
		api: 'tags',
		place: 'additional',
		form: commaList('Tags', 'tags; content is searchable by them'),
		schema: listOfStrings,
		fromListing: (c) =>
			Array.isArray(c.tags) && c.tags.every((t) => typeof t === 'string') ? c.tags : undefined,
	},
];

const TOP = COURSE_FIELDS.filter((f) => f.place === 'top');

export type CourseOperation = 'upsert' | 'archive';

function additionalFieldsFor(operation: CourseOperation): CourseField[] {
	return COURSE_FIELDS.filter(
		(f) => f.place === 'additional' && (operation === 'upsert' || !f.upsertOnly),
	);
}

/** A field's form control. */
export function formProperty(field: CourseField): INodeProperties {
	return { ...field.form, name: field.param } as INodeProperties;
}

/** Upsert's own top-level fields (External ID, Name, URL, Prices). */
export function topProperties(): INodeProperties[] {
	return TOP.map(formProperty);
}

/** The Additional Fields collection of an operation. */
export function additionalFieldsProperty(
	operation: CourseOperation,
	description?: string,
): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		description,
		options: additionalFieldsFor(operation).map(formProperty),
	};
}

/** What the user gave, by API field: only non-empty values, each checked by its field. */
export type CourseValues = Record<string, unknown>;

/**
 * Checks the given values (top-level ones by parameter name, and Additional Fields) and maps
 * them to body values keyed by API name. Empty values count as not given. Issue paths name the
 * parameter, so a message reads "additionalFields.publishedAt: …".
 */
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
			if (withTop) for (const field of TOP) check(field, input.top[field.param], [field.param]);
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

/** The request body: required fields first, then every optional value given. */
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

/** What a catalog listing item tells about the fields the listing carries, as body values. */
export function valuesFromListing(course: IDataObject): CourseValues {
	const values: CourseValues = {};
	for (const field of COURSE_FIELDS) {
		const value = field.fromListing?.(course);
		// A listed empty value (null, [], '') is known to be empty: carrying it over loses nothing.
		if (value !== undefined) values[field.api] = value;
	}
	return values;
}

/** API names of the fields the listing can carry (what a catalog index keeps). */
export const LISTED_FIELDS = COURSE_FIELDS.filter((f) => f.fromListing).map((f) => f.api);

export const EXTERNAL_ID_FIELD = 'external_id';
export const STATUS_FIELD = 'status';

/**
 * Fills what the user left empty with the listing's values, and names the optional fields
 * that neither supplied: the platform replaces the whole course, so it will clear them.
 */
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
	const cleared = [...TOP, ...additionalFieldsFor(operation)]
		.map((f) => f.api)
		.filter((api) => api !== STATUS_FIELD && values[api] === undefined);
	return { values, kept, cleared };
}

/** Parameter label of an API field, for messages ("Content Type"). */
export function labelOf(api: string): string {
	return COURSE_FIELDS.find((f) => f.api === api)?.form.displayName ?? api;
}

/** The documented fields of a catalog listing item ("Content - list item"), in the documents' order. */
export const LISTING_ITEM_FIELDS = [
	'id',
	'name',
	'description',
	'images',
	'url',
	'external_id',
	'additional_metadata',
	'source_id',
	'organization_id',
	'tags',
	'published_at',
	'duration',
	'duration_sec',
	'restricted_groups',
	'groups',
	'channels',
	'ecl_id',
	'is_private',
	'prices_data',
	'ecl_source_id',
] as const;

/** The listing fields a simplified course keeps (at most 10, as n8n's guidelines for tools ask). */
export const SIMPLIFIED_COURSE_FIELDS = [
	'id',
	'external_id',
	'name',
	'url',
	'description',
	'tags',
	'published_at',
	'duration_sec',
	'is_private',
	'prices_data',
] as const;

/** A listing item with only what a builder or an AI agent usually needs, under the listing's names. */
export function simplifiedCourse(course: IDataObject): IDataObject {
	const simplified: IDataObject = {};
	for (const field of SIMPLIFIED_COURSE_FIELDS) {
		if (course[field] !== undefined) simplified[field] = course[field];
	}
	return simplified;
}
