/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import {
	additionalFieldsProperty,
	formProperty,
	listedFieldNames,
	spoken,
	additionalFieldsFor,
	unlistedFieldNames,
} from '../../../../../nodes/LearningPlatform/actions/course/form';
import { description as archiveForm } from '../../../../../nodes/LearningPlatform/actions/course/archive.operation';
import { description as upsertForm } from '../../../../../nodes/LearningPlatform/actions/course/upsert.operation';
import { COURSE_FIELDS, LISTED_FIELDS } from '../../../../../nodes/LearningPlatform/transport/courses';
import { sectionOf } from '../../../../tooling/docs/markdown';

const courses = fs.readFileSync(path.join(__dirname, '../../../../../docs/courses.md'), 'utf8');

/** The courses page with its line breaks folded, as a reader sees it. */
const prose = courses.replace(/\s+/g, ' ');

/** One section of the courses page (by its anchor), folded the same way. */
const section = (anchor: string) => sectionOf(courses, anchor).replace(/\s+/g, ' ');

describe('the course contract: one field table, its form half and its prose', () => {
	test('every field of the table has a form control, labelled from the table', () => {
		for (const field of COURSE_FIELDS) {
			const control = formProperty(field);
			expect(control).toMatchObject({ name: field.param, displayName: field.label });
		}
	});

	test("Additional Fields offers exactly the table's optional fields of each operation", () => {
		for (const operation of ['upsert', 'archive'] as const) {
			const offered = (additionalFieldsProperty(operation).options ?? []).map(
				(option) => (option as { name: string }).name,
			);
			expect(offered).toEqual(additionalFieldsFor(operation).map((field) => field.param));
		}
	});

	test('the lists of kept and unkept fields follow the listing mapping', () => {
		const listed = COURSE_FIELDS.filter((field) => LISTED_FIELDS.includes(field.api));
		expect(listedFieldNames()).toEqual(
			listed.filter((field) => field.param !== 'externalId').map((field) => field.label),
		);
		for (const name of unlistedFieldNames('upsert')) {
			const field = COURSE_FIELDS.find((candidate) => candidate.label === name);
			expect(field?.fromListing).toBeUndefined();
		}
	});

	test('the help texts name exactly the generated lists', () => {
		const forms = JSON.stringify([upsertForm, archiveForm]);
		expect(forms).toContain(spoken(listedFieldNames(), 'and'));
		expect(forms).toContain(`The catalog listing has no ${spoken(unlistedFieldNames('archive'))}.`);
	});

	test('docs/courses.md: Keep Current Values and Archive name the same fields as the table (drift fails here)', () => {
		expect(prose).toContain(
			`where the catalog listing has them: ${spoken(listedFieldNames(), 'and')}`,
		);
		expect(prose).toContain(`The listing has no ${spoken(unlistedFieldNames('upsert'))}`);
		expect(section('archive')).toContain(
			`What the listing cannot return** (${spoken(unlistedFieldNames('archive'))})`,
		);
	});

	test('docs/courses.md: Create or Update names every field of the form', () => {
		const upsert = section('create-or-update');
		for (const field of COURSE_FIELDS) expect(upsert).toContain(field.label);
	});
});
