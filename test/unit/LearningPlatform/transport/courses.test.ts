/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import {
	COURSE_FIELDS,
	courseBody,
	LISTED_FIELDS,
	valuesFromListing,
} from '../../../../nodes/LearningPlatform/transport/courses';
import { courseValuesSchema, formProperty } from '../../../../nodes/LearningPlatform/actions/course/form';
import * as archive from '../../../../nodes/LearningPlatform/actions/course/archive.operation';
import * as upsert from '../../../../nodes/LearningPlatform/actions/course/upsert.operation';

/** The request body fields of the platform's documents (section 2, Content). */
const DOCUMENTED_BODY_FIELDS = [
	'name',
	'url',
	'external_id',
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
	'description',
];

/** The list item fields the documents give that a body field can be rebuilt from. */
const DOCUMENTED_LIST_ITEM = {
	id: '7d3c1f5e-8a1b-4c7e-9d2a-0b1c2d3e4f50',
	name: 'Listed',
	description: 'From the listing',
	images: [{ url: 'https://learn.test/i.png' }],
	url: 'https://learn.test/listed',
	external_id: 'ext-9',
	additional_metadata: { duration: 60, external_id: 'ext-9' },
	source_id: 's',
	organization_id: 'o',
	tags: ['t'],
	published_at: '2026-01-31T00:00:00.000Z',
	duration: null,
	duration_sec: 60,
	restricted_groups: [{ id: 'r1' }],
	groups: ['g1'],
	channels: [{ id: 5, name: 'Five' }],
	ecl_id: '7d3c1f5e-8a1b-4c7e-9d2a-0b1c2d3e4f50',
	is_private: true,
	prices_data: [{ amount: 3, currency: 'INR' }],
	ecl_source_id: 's',
};

/** One valid form value per field and the body value it must become. */
const SAMPLES: Record<string, [unknown, unknown]> = {
	externalId: [' ext-1 ', 'ext-1'],
	name: ['Course', 'Course'],
	url: ['https://learn.test/c', 'https://learn.test/c'],
	prices: [{ price: [{ amount: '12.50', currency: 'USD' }] }, [{ amount: 12.5, currency: 'USD' }]],
	channelIds: ['a, b', ['a', 'b']],
	contentType: ['video', 'video'],
	courseType: ['article', 'article'],
	description: ['Text', 'Text'],
	durationSec: [60, 60],
	expirationDate: ['2027-01-02T03:04:05', '2027-01-02 03:04:05'],
	groupIds: [
		['g1', 2],
		['g1', '2'],
	],
	imageUrl: ['https://learn.test/i.png', 'https://learn.test/i.png'],
	isPrivate: [true, true],
	languages: [
		{ language: [{ languageCode: 'DE', title: 'Titel' }] },
		[{ language_code: 'de', title: 'Titel' }],
	],
	level: ['advanced', 'advanced'],
	publishedAt: ['2026-01-31', '2026-01-31'],
	restrictedGroupIds: ['r', ['r']],
	skills: ['sql', ['sql']],
	status: ['archived', 'archived'],
	tags: ['x,y', ['x', 'y']],
};

function flatten(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) =>
		p.name === 'additionalFields' ? (p.options as INodeProperties[]) : [p],
	);
}

describe('the course contract, field by field', () => {
	test('declares every documented body field once, under its interface parameter name', () => {
		expect(COURSE_FIELDS.map((f) => f.api).sort()).toEqual([...DOCUMENTED_BODY_FIELDS].sort());
		expect(new Set(COURSE_FIELDS.map((f) => f.param)).size).toBe(COURSE_FIELDS.length);
	});

	test.each(COURSE_FIELDS.map((f) => [f.param, f] as const))(
		'%s: form, validation and body agree',
		(_, field) => {
			const upsertForm = flatten(upsert.description);
			const control = upsertForm.find((p) => p.name === field.param);
			expect(control?.displayName).toBe(field.label);
			// External ID is typed by default but can also pick an existing course.
			expect(control?.type).toBe(
				field.param === 'externalId' ? 'resourceLocator' : formProperty(field).type,
			);
			// Archive picks its course (External ID) with a course picker, and takes the optional
			// fields but Status.
			const inArchive = flatten(archive.description).some(
				(p) =>
					p.name === field.param && (p.displayName === field.label || p.type === 'resourceLocator'),
			);
			expect(inArchive).toBe(
				field.param === 'externalId' || (field.place === 'additional' && !field.upsertOnly),
			);

			const [formValue, bodyValue] = SAMPLES[field.param];
			const base = { externalId: 'e', name: 'n', url: 'https://x.test/' };
			const top = field.place === 'top' ? { ...base, [field.param]: formValue } : base;
			const additionalFields = field.place === 'additional' ? { [field.param]: formValue } : {};
			const values = courseValuesSchema('upsert', true).parse({ top, additionalFields });
			expect(courseBody(values)[field.api]).toEqual(bodyValue);

			// The form's default never fails validation, or is empty (not sent).
			const fallback = courseValuesSchema('upsert', true).safeParse({
				top: field.place === 'top' ? { ...base, [field.param]: formProperty(field).default } : base,
				additionalFields:
					field.place === 'additional' ? { [field.param]: formProperty(field).default } : {},
			});
			if (formProperty(field).required)
				expect(fallback.success).toBe(formProperty(field).default !== '');
			else expect(fallback.success).toBe(true);
		},
	);

	test('the listing mapping reads exactly the documented listing, and says which fields it can carry', () => {
		const values = valuesFromListing(DOCUMENTED_LIST_ITEM);
		expect(Object.keys(values).sort()).toEqual([...LISTED_FIELDS].sort());
		expect(values).toMatchObject({
			image_url: 'https://learn.test/i.png',
			published_at: '2026-01-31',
			group_ids: ['g1'],
			channel_ids: ['5'],
			restricted_group_ids: ['r1'],
		});
		for (const undocumented of [
			'content_type',
			'course_type',
			'level',
			'skills',
			'languages_attributes',
			'expiration_date',
			'status',
		]) {
			expect(LISTED_FIELDS).not.toContain(undocumented);
		}
	});

	test('every course API field name is spelled in one file, the field table’s (the listing item fields beside it)', () => {
		const distinctive = [
			'content_type',
			'course_type',
			'is_private',
			'duration_sec',
			'published_at',
			'image_url',
			'languages_attributes',
			'prices_data',
			'expiration_date',
			'restricted_group_ids',
			'group_ids',
			'channel_ids',
			'language_code',
		];
		const root = path.resolve(__dirname, '../../../../nodes');
		const files: string[] = [];
		const walk = (dir: string) => {
			for (const name of readdirSync(dir)) {
				const full = path.join(dir, name);
				if (statSync(full).isDirectory()) walk(full);
				else if (name.endsWith('.ts')) files.push(full);
			}
		};
		walk(root);
		const spelledIn = new Set(
			files
				.filter((file) =>
					distinctive.some(
						(name) =>
							readFileSync(file, 'utf8').includes(`'${name}'`) ||
							readFileSync(file, 'utf8').includes(`${name}:`),
					),
				)
				.map((file) => path.relative(root, file)),
		);
		expect([...spelledIn].sort()).toEqual(['LearningPlatform/transport/courses.ts']);
	});
});
