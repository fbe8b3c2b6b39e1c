import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { additionalFields } from '../../../shared/form/input';
import type { CourseField, CourseValues } from '../../transport/courses';
import { COURSE_FIELDS, currency, present } from '../../transport/courses';

export const TOP_FIELDS = COURSE_FIELDS.filter((f) => f.place === 'top');

export type CourseOperation = 'upsert' | 'archive';

export function additionalFieldsFor(operation: CourseOperation): CourseField[] {
	return COURSE_FIELDS.filter(
		(f) => f.place === 'additional' && (operation === 'upsert' || !f.upsertOnly),
	);
}

/** Issue paths name the parameter: "additionalFields.publishedAt: …". Empty values are not given. */
export function courseValuesSchema(operation: CourseOperation, withTop: boolean) {
	const additional = additionalFieldsFor(operation);
	const offered = new Set(additional.map((f) => f.param));
	const byName = z.record(z.string(), z.unknown());
	return z.object({ top: byName, additionalFields: byName }).transform((input, ctx) => {
		const values: CourseValues = {};
		const check = (field: CourseField, raw: unknown, path: string[]) => {
			// Required fields and prices are always checked; optional ones only when given.
			if (field.place !== 'top' && !present(raw)) return;
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
		for (const name of Object.keys(input.additionalFields).filter((n) => !offered.has(n))) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['additionalFields', name],
				message: 'is not a field of this operation',
			});
		}
		for (const field of additional) {
			check(field, input.additionalFields[field.param], ['additionalFields', field.param]);
		}
		return values;
	});
}

type Control = Omit<INodeProperties, 'name' | 'displayName'>;

const text = (more: Partial<Control> = {}): Control => ({ type: 'string', default: '', ...more });

const part = (displayName: string, name: string, more: Partial<Control> = {}) =>
	({ displayName, name, ...text(more) }) as INodeProperties;

const commaList = (effect: string) => text({ description: `Comma-separated ${effect}` });

const entryList = (
	entry: string,
	{ values, ...more }: Partial<Control> & { values: INodeProperties[] },
): Control => ({
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	...more,
	options: [{ displayName: entry[0].toUpperCase() + entry.slice(1), name: entry, values }],
});

const CONTROLS: Record<string, Control> = {
	externalId: text({
		required: true,
		description: 'Your own ID for the course. Sending an existing one updates that course.',
	}),
	name: text({ required: true }),
	url: text({ required: true, placeholder: 'https://learn.example.com/courses/onboarding' }),
	prices: entryList('price', {
		placeholder: 'Add price',
		description: 'Leave empty for free content. Prices are replaced on every update.',
		values: [
			part('Amount', 'amount', {
				placeholder: 'e.g. 49.99',
				description: 'A positive amount, such as 49.99',
			}),
			part('Currency', 'currency', {
				type: 'options',
				options: currency.options.map((value) => ({ name: value, value })),
				default: 'USD',
			}),
		],
	}),
	channelIds: commaList('channel IDs. Channels not listed are removed from the content.'),
	contentType: {
		type: 'options',
		default: 'course',
		description: 'What the content is; learners can filter search results by it',
	},
	courseType: {
		type: 'options',
		default: 'course',
		description: "A second type the platform's samples send with the same values",
	},
	description: text({ typeOptions: { rows: 3 } }),
	durationSec: {
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
	},
	expirationDate: text({
		placeholder: '2027-12-31 23:59:59',
		description: 'When the content expires by itself, as YYYY-MM-DD HH:MM:SS',
	}),
	groupIds: commaList('group IDs. Groups not listed are removed from the content.'),
	imageUrl: text({
		description: 'Linked, not downloaded. A missing or broken image is replaced by a stock image.',
	}),
	isPrivate: {
		type: 'boolean',
		default: false,
		description: 'Whether the content is private',
	},
	languages: entryList('language', {
		description: "Language versions. Send none to use the source's default language.",
		values: [
			part('Language Code', 'languageCode', { placeholder: 'en', description: 'Two-letter code' }),
			part('Title', 'title'),
			part('URL', 'url'),
			part('Description', 'description'),
		],
	}),
	level: { type: 'options', default: 'beginner' },
	publishedAt: text({ placeholder: '2026-01-31', description: 'Publication date as YYYY-MM-DD' }),
	restrictedGroupIds: commaList('IDs of the groups the content is restricted to'),
	skills: commaList('skills; content is searchable by them'),
	status: {
		type: 'options',
		default: 'active',
		description: 'Archived content cannot be made active again',
	},
	tags: commaList('tags; content is searchable by them'),
};

/** A choice's options are its schema's values, so the form offers exactly what is accepted. */
export function formProperty(field: CourseField): INodeProperties {
	const control = CONTROLS[field.param];
	if (!control) throw new Error(`The course field ${field.param} has no form control`);
	const property = { ...control, displayName: field.label, name: field.param } as INodeProperties;
	if (control.type === 'options') {
		property.options = (field.schema as z.ZodEnum<[string, ...string[]]>).options.map((value) => ({
			name: value[0].toUpperCase() + value.slice(1),
			value,
		}));
	}
	return property;
}

export const TOP_PROPERTIES = TOP_FIELDS.map(formProperty);

export function additionalFieldsProperty(
	operation: CourseOperation,
	description?: string,
): INodeProperties {
	return additionalFields(additionalFieldsFor(operation).map(formProperty), { description });
}

export function spoken(words: string[], conjunction: 'or' | 'and' = 'or'): string {
	return words.length <= 1
		? words.join('')
		: `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** The labels of the optional fields the catalog listing does not return (they cannot be kept). */
export function unlistedFieldNames(operation: CourseOperation): string[] {
	return additionalFieldsFor(operation)
		.filter((field) => !field.fromListing && field.api !== 'status')
		.map((field) => field.label);
}

export function listedFieldNames(): string[] {
	return COURSE_FIELDS.filter((f) => f.fromListing && f.param !== 'externalId').map((f) => f.label);
}
