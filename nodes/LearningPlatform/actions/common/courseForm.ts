import type { INodeProperties } from 'n8n-workflow';

import { additionalFields } from '../../../shared/items/operation';
import type { CourseField, CourseOperation } from '../../transport/courseContract';
import {
	COURSE_FIELDS,
	LISTED_FIELDS,
	TOP_FIELDS,
	additionalFieldsFor,
	labelOf,
} from '../../transport/courseContract';

/** Each course field's editor control, keyed by parameter; the field table is in courseContract.ts. */

/** A field's control without its name and label (both come from the table). */
type Control = Omit<INodeProperties, 'name' | 'displayName'>;

const CONTENT_TYPES = [
	{ name: 'Article', value: 'article' },
	{ name: 'Course', value: 'course' },
	{ name: 'Video', value: 'video' },
];

const commaList = (effect: string): Control => ({
	type: 'string',
	default: '',
	description: `Comma-separated ${effect}`,
});

const CONTROLS: Record<string, Control> = {
	externalId: {
		type: 'string',
		required: true,
		default: '',
		description: 'Your own ID for the course. Sending an existing one updates that course.',
	},
	name: { type: 'string', required: true, default: '' },
	url: {
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://learn.example.com/courses/onboarding',
	},
	prices: {
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
	channelIds: commaList('channel IDs. Channels not listed are removed from the content.'),
	contentType: {
		type: 'options',
		options: CONTENT_TYPES,
		default: 'course',
		description: 'What the content is; learners can filter search results by it',
	},
	courseType: {
		type: 'options',
		options: CONTENT_TYPES,
		default: 'course',
		description: "A second type the platform's samples send with the same values",
	},
	description: { type: 'string', typeOptions: { rows: 3 }, default: '' },
	durationSec: {
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
	},
	expirationDate: {
		type: 'string',
		default: '',
		placeholder: '2027-12-31 23:59:59',
		description: 'When the content expires by itself, as YYYY-MM-DD HH:MM:SS',
	},
	groupIds: commaList('group IDs. Groups not listed are removed from the content.'),
	imageUrl: {
		type: 'string',
		default: '',
		description: 'Linked, not downloaded. A missing or broken image is replaced by a stock image.',
	},
	isPrivate: {
		type: 'boolean',
		default: false,
		description: 'Whether the content is private',
	},
	languages: {
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
	level: {
		type: 'options',
		options: [
			{ name: 'Beginner', value: 'beginner' },
			{ name: 'Intermediate', value: 'intermediate' },
			{ name: 'Advanced', value: 'advanced' },
		],
		default: 'beginner',
	},
	publishedAt: {
		type: 'string',
		default: '',
		placeholder: '2026-01-31',
		description: 'Publication date as YYYY-MM-DD',
	},
	restrictedGroupIds: commaList('IDs of the groups the content is restricted to'),
	skills: commaList('skills; content is searchable by them'),
	status: {
		type: 'options',
		options: [
			{ name: 'Active', value: 'active' },
			{ name: 'Archived', value: 'archived' },
		],
		default: 'active',
		description: 'Archived content cannot be made active again',
	},
	tags: commaList('tags; content is searchable by them'),
};

export function formProperty(field: CourseField): INodeProperties {
	const control = CONTROLS[field.param];
	if (!control) throw new Error(`The course field ${field.param} has no form control`);
	return { ...control, displayName: field.label, name: field.param } as INodeProperties;
}

export function topProperties(): INodeProperties[] {
	return TOP_FIELDS.map(formProperty);
}

export function additionalFieldsProperty(
	operation: CourseOperation,
	description?: string,
): INodeProperties {
	return additionalFields(additionalFieldsFor(operation).map(formProperty), { description });
}

/** "a, b or c" (or "and"). */
export function spoken(words: string[], conjunction: 'or' | 'and' = 'or'): string {
	return words.length <= 1
		? words.join('')
		: `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** The labels of the optional fields the catalog listing does not return (they cannot be kept). */
export function unlistedFieldNames(operation: CourseOperation): string[] {
	return additionalFieldsFor(operation)
		.filter((field) => !LISTED_FIELDS.includes(field.api) && field.api !== 'status')
		.map((field) => field.label);
}

/** The labels of the fields the catalog listing returns (what Keep Current Values can keep). */
export function listedFieldNames(): string[] {
	return COURSE_FIELDS.filter(
		(field) => LISTED_FIELDS.includes(field.api) && field.param !== 'externalId',
	).map((field) => labelOf(field.api));
}
