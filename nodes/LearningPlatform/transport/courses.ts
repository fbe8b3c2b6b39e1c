import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { listOfStrings, safeId, typeMessages } from '../../shared/form/input';
import type { Deadline } from '../../shared/pacing/time';
import type { PagingLimits } from '../../shared/pacing/paging';
import { DEFAULT_PAGING_LIMITS, PageGuard, withinBounds } from '../../shared/pacing/paging';
import type { IndexedCourse, LmsRun, WriteSettings } from './index';
import { EXTERNAL_ID_FIELD, lmsRequest, postWrite } from './index';
import { flexibleDate, flexibleDateTime, httpUrl, positiveAmount } from './formats';

/** The course fields, declared once (the form half is actions/course/form.ts). */
export interface CourseField {
	param: string;
	api: string;
	/** Top-level required fields and prices sit on the form itself; the rest in Additional Fields. */
	place: 'top' | 'additional';
	label: string;
	/** Checks the form value and turns it into the body value. Empty values never reach it. */
	schema: z.ZodTypeAny;
	/** The body value from a catalog listing item, if the documented listing carries it. */
	fromListing?: (course: IDataObject) => unknown;
	upsertOnly?: boolean;
}

const text = z.string(typeMessages(undefined, 'must be text'));

export const present = (value: unknown): boolean =>
	value !== undefined &&
	value !== null &&
	value !== '' &&
	!(Array.isArray(value) && value.length === 0);

/** Ids from a listing's groups/channels: their shape is undocumented, so only clear ids are taken. */
function idsFrom(value: unknown): string[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const ids = value.map((entry) =>
		entry && typeof entry === 'object' ? (entry as IDataObject).id : entry,
	);
	return ids.every((id) => typeof id === 'string' || typeof id === 'number')
		? ids.map(String)
		: undefined;
}

export const currency = z.enum(['INR', 'USD']);

const price = z.object({ amount: positiveAmount, currency }).strict();

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
	.transform(({ languageCode, ...texts }) => ({
		language_code: languageCode.toLowerCase(),
		...Object.fromEntries(Object.entries(texts).filter(([, value]) => value)),
	}));

function field(
	param: string,
	api: string,
	label: string,
	schema: z.ZodTypeAny,
	more: Partial<CourseField> = {},
): CourseField {
	return { param, api, place: 'additional', label, schema, ...more };
}

const contentTypes = z.enum(['article', 'course', 'video']);

const listOf = <T extends z.ZodTypeAny>(name: string, entry: T) =>
	z
		.object({ [name]: z.array(entry).optional() })
		.strict()
		.transform((l) => l[name] ?? []);

export const COURSE_FIELDS: CourseField[] = [
	field('externalId', EXTERNAL_ID_FIELD, 'External ID', safeId, {
		place: 'top',
		fromListing: (c) =>
			c.external_id ?? (c.additional_metadata as IDataObject | undefined)?.external_id,
	}),
	field('name', 'name', 'Name', text.trim().min(1, 'is required'), {
		place: 'top',
		fromListing: (c) => c.name,
	}),
	field('url', 'url', 'URL', httpUrl, { place: 'top', fromListing: (c) => c.url }),
	field('prices', 'prices_data', 'Prices', listOf('price', price), {
		place: 'top',
		fromListing: (c) =>
			Array.isArray(c.prices_data) &&
			c.prices_data.every((p) => p && typeof p === 'object' && 'amount' in p && 'currency' in p)
				? (c.prices_data as IDataObject[]).map((p) => ({ amount: p.amount, currency: p.currency }))
				: undefined,
	}),
	field('channelIds', 'channel_ids', 'Channel IDs', listOfStrings, {
		fromListing: (c) => idsFrom(c.channels),
	}),
	field('contentType', 'content_type', 'Content Type', contentTypes),
	field('courseType', 'course_type', 'Course Type', contentTypes),
	field('description', 'description', 'Description', text, { fromListing: (c) => c.description }),
	field(
		'durationSec',
		'duration_sec',
		'Duration (Seconds)',
		z
			.number(typeMessages(undefined, 'must be a number'))
			.int('must be a whole number of seconds')
			.nonnegative('cannot be negative'),
		{
			fromListing: (c) =>
				c.duration_sec === null || typeof c.duration_sec === 'number' ? c.duration_sec : undefined,
		},
	),
	field('expirationDate', 'expiration_date', 'Expiration Date', flexibleDateTime),
	field('groupIds', 'group_ids', 'Group IDs', listOfStrings, {
		fromListing: (c) => idsFrom(c.groups),
	}),
	field('imageUrl', 'image_url', 'Image URL', httpUrl, {
		fromListing: (c) => {
			if (!Array.isArray(c.images)) return undefined;
			const first = (c.images as IDataObject[])[0];
			// No image listed: known to have none.
			return typeof first?.url === 'string' ? first.url : first === undefined ? null : undefined;
		},
	}),
	field(
		'isPrivate',
		'is_private',
		'Is Private',
		z.boolean(typeMessages(undefined, 'must be true or false')),
		{
			fromListing: (c) => (typeof c.is_private === 'boolean' ? c.is_private : undefined),
		},
	),
	field('languages', 'languages_attributes', 'Languages', listOf('language', language)),
	field('level', 'level', 'Level', z.enum(['beginner', 'intermediate', 'advanced'])),
	field('publishedAt', 'published_at', 'Published At', flexibleDate, {
		// The listing gives an ISO timestamp; the platform's own date is its date part.
		fromListing: ({ published_at: at }) =>
			at === null ? null : typeof at === 'string' ? /^\d{4}-\d{2}-\d{2}/.exec(at)?.[0] : undefined,
	}),
	field('restrictedGroupIds', 'restricted_group_ids', 'Restricted Group IDs', listOfStrings, {
		fromListing: (c) => idsFrom(c.restricted_groups),
	}),
	field('skills', 'skills', 'Skills', listOfStrings),
	// Only upsert offers it: archive sets it itself.
	field('status', 'status', 'Status', z.enum(['active', 'archived']), { upsertOnly: true }),
	field('tags', 'tags', 'Tags', listOfStrings, {
		fromListing: (c) =>
			Array.isArray(c.tags) && c.tags.every((t) => typeof t === 'string') ? c.tags : undefined,
	}),
];

/** What the user gave, by API field: only non-empty values, each checked by its field. */
export type CourseValues = Record<string, unknown>;

export function courseBody(values: CourseValues): IDataObject {
	// null: known to be empty (from the listing); not sent, and the platform keeps it empty.
	const sent = COURSE_FIELDS.filter(({ api }) => values[api] !== undefined && values[api] !== null);
	const body = Object.fromEntries(sent.map(({ api }) => [api, values[api]])) as IDataObject;
	// The documents require prices_data on every write: an empty list means free content.
	return { ...body, prices_data: body.prices_data ?? [] };
}

export function valuesFromListing(course: IDataObject): CourseValues {
	const listed = COURSE_FIELDS.map((field) => [field.api, field.fromListing?.(course)] as const);
	// A listed empty value (null, [], '') is known to be empty: carrying it over loses nothing.
	return Object.fromEntries(listed.filter(([, value]) => value !== undefined));
}

export const LISTED_FIELDS = COURSE_FIELDS.filter((f) => f.fromListing).map((f) => f.api);

/** The documented fields of a catalog listing item ("Content - list item"), in the documents' order. */
export const LISTING_ITEM_FIELDS = [
	'id',
	'name',
	'description',
	'images',
	'url',
	EXTERNAL_ID_FIELD,
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

export const STATUS_FIELD = 'status';

/** The platform replaces the whole course: optional fields neither side supplied are cleared. */
export function mergeWithListing(
	given: CourseValues,
	listed: CourseValues,
): { values: CourseValues; keptFields: string[]; clearedFields: string[] } {
	const keptFields = Object.keys(listed).filter((api) => !present(given[api]));
	const values = { ...given, ...Object.fromEntries(keptFields.map((api) => [api, listed[api]])) };
	const clearedFields = COURSE_FIELDS.map((f) => f.api).filter(
		(api) => api !== STATUS_FIELD && values[api] === undefined,
	);
	return { values, keptFields, clearedFields };
}

const coursePageShape = z
	.object({
		data: z.array(z.record(z.string(), z.unknown())),
		total_count: z.number().int().nonnegative().optional(),
	})
	.passthrough();

export const COURSES_PATH = '/api/developer/v2/courses.json';

/** The list's largest page is undocumented: ask for 100 and page by what comes back. */
export const PAGE_SIZE = 100;

interface CatalogWalk {
	offset?: number;
	pageSize?: number;
	limits?: PagingLimits;
	deadline: Deadline;
}

const textOf = (id: unknown) => (id === undefined || id === null ? undefined : String(id));

export async function forEachCoursePage(
	run: LmsRun,
	itemIndex: number,
	{ offset = 0, pageSize = PAGE_SIZE, limits = DEFAULT_PAGING_LIMITS, deadline }: CatalogWalk,
	visit: (courses: IDataObject[]) => boolean | Promise<boolean>,
): Promise<{ endedEarly?: string }> {
	const guard = new PageGuard('Listing courses', limits);
	let position = offset;
	let total: number | undefined;
	const guarded = <T>(check: () => T): T => withinBounds(run.fns.getNode(), itemIndex, check);
	for (;;) {
		guarded(() => guard.next());
		let bytes = 0;
		const page = await lmsRequest(run, itemIndex, {
			method: 'GET',
			path: COURSES_PATH,
			qs: { offset: position, limit: pageSize, return_total_count: true },
			action: 'Listing courses',
			deadline,
			answer: { schema: coursePageShape, is: 'a page of courses' },
			measured: (size) => (bytes = size),
		});
		const courses = page.data as IDataObject[];
		guarded(() => guard.read(bytes, page));
		if (courses.length === 0) {
			return total !== undefined && position < total
				? { endedEarly: `the listing ended at ${position} of the ${total} courses it announced` }
				: {};
		}
		const fresh = guarded(() =>
			guard.admit(courses.map((course) => textOf(course.id ?? course[EXTERNAL_ID_FIELD]))),
		);
		if ((await visit(courses.filter((_, i) => fresh[i]))) === false) return {};
		position += courses.length;
		if (page.total_count !== undefined) total = Math.max(total ?? 0, page.total_count);
		if (total !== undefined && position >= total) return {};
	}
}

export function indexedCourse(course: IDataObject): [string, IndexedCourse] | undefined {
	const listed = valuesFromListing(course);
	const externalId = listed[EXTERNAL_ID_FIELD];
	if (typeof externalId !== 'string' && typeof externalId !== 'number') return undefined;
	return [String(externalId), { id: textOf(course.id), listed }];
}

export async function catalogEntry(
	run: LmsRun,
	itemIndex: number,
	externalId: string,
	deadline: Deadline,
): Promise<IndexedCourse | undefined> {
	run.catalog.byExternalId ??= (async () => {
		const index = new Map<string, IndexedCourse>();
		await forEachCoursePage(run, itemIndex, { deadline }, (courses) => {
			for (const entry of courses.map(indexedCourse)) if (entry) index.set(...entry);
			return true;
		});
		return index;
	})();
	return (await run.catalog.byExternalId).get(externalId);
}

export async function upsertCourse(
	run: LmsRun,
	itemIndex: number,
	given: CourseValues,
	{ keepCurrentValues, ...write }: WriteSettings & { keepCurrentValues: boolean },
): Promise<IDataObject> {
	const externalId = String(given[EXTERNAL_ID_FIELD]);
	let values = given;
	let report: IDataObject = {};
	if (keepCurrentValues) {
		const current = await catalogEntry(run, itemIndex, externalId, write.deadline);
		if (current) ({ values, ...report } = mergeWithListing(given, current.listed));
		else {
			report = {
				keptFields: [],
				keepCurrentValues: 'The course is not in the catalog yet: there was nothing to keep.',
			};
		}
	}
	const output = await postWrite(run, itemIndex, {
		path: COURSES_PATH,
		body: courseBody(values),
		action: `Upserting course "${externalId}"`,
		...write,
		echo: { externalId },
	});
	return { ...output, ...report };
}
