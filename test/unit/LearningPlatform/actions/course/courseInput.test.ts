/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not part of the n8n package */
import { z } from 'zod';

import { parseCourseJson } from '../../../../../nodes/LearningPlatform/actions/course/courseInput';

const base = { external_id: 'c-1', name: 'Course', url: 'https://learn.test/c' };

function issuesOf(input: unknown): Record<string, string> {
	const result = parseCourseJson(input);
	if (result.ok) throw new Error('expected issues');
	return Object.fromEntries(result.issues.map((i) => [i.path, i.message]));
}

describe('a course as the platform object', () => {
	test('runs under the expected zod line', () => {
		const expected = (globalThis as { expectedZodMajor?: number }).expectedZodMajor ?? 3;
		expect('_zod' in z.string()).toBe(expected === 4);
	});

	test('gives the body values the form would give', () => {
		const result = parseCourseJson({
			...base,
			prices_data: [{ amount: '9.90', currency: 'USD' }],
			languages_attributes: [{ language_code: 'FR', title: 'Cours', url: null }],
			tags: ['a', ' b '],
			group_ids: [7, '8'],
			duration_sec: 60,
			is_private: false,
			published_at: '2026-02-01',
			expiration_date: '2027-01-01 10:00:00',
			level: 'beginner',
			description: '',
		});
		expect(result).toEqual({
			ok: true,
			values: {
				external_id: 'c-1',
				name: 'Course',
				url: 'https://learn.test/c',
				prices_data: [{ amount: 9.9, currency: 'USD' }],
				languages_attributes: [{ language_code: 'fr', title: 'Cours' }],
				tags: ['a', 'b'],
				group_ids: ['7', '8'],
				duration_sec: 60,
				is_private: false,
				published_at: '2026-02-01',
				expiration_date: '2027-01-01 10:00:00',
				level: 'beginner',
			},
		});
	});

	test('accepts a string holding the object', () => {
		expect(parseCourseJson(JSON.stringify(base)).ok).toBe(true);
		expect(issuesOf('{ not json')).toEqual({ '': 'is not valid JSON' });
		expect(issuesOf([base])['']).toContain('must be a course object');
	});

	test('names every bad field by its API path', () => {
		const issues = issuesOf({
			external_id: '',
			name: 5,
			url: 'ftp://x',
			prices_data: [
				{ amount: 0, currency: 'USD' },
				{ amount: 3, currency: 'EUR' },
			],
			languages_attributes: [{ language_code: 'eng' }],
			duration_sec: 1.5,
			is_private: 'yes',
			published_at: '2026-02-30',
			expiration_date: '2026-01-01T10:00:00Z',
			content_type: 'podcast',
			skills: { a: 1 },
		});
		expect(issues).toMatchObject({
			name: 'must be text',
			is_private: 'must be true or false',
			content_type: 'must be one of article, course, video',
			skills: 'must be a list of text (or comma-separated text)',
		});
		// With the types right, each content check still names its field by API path.
		const content = issuesOf({
			external_id: '',
			name: 'x',
			url: 'ftp://x',
			prices_data: [
				{ amount: 0, currency: 'USD' },
				{ amount: 3, currency: 'EUR' },
			],
			languages_attributes: [{ language_code: 'eng' }],
			duration_sec: 1.5,
			published_at: '2026-02-30',
			expiration_date: '2026-01-01T10:00:00Z',
		});
		expect(Object.keys(content).sort()).toEqual([
			'duration_sec',
			'expiration_date',
			'external_id',
			'languages_attributes[0].language_code',
			'prices_data[0].amount',
			'prices_data[1].currency',
			'published_at',
			'url',
		]);
		expect(content).toMatchObject({
			external_id: 'is required',
			'prices_data[0].amount': 'must be greater than 0',
			'languages_attributes[0].language_code': 'must be a two-letter language code such as en',
			duration_sec: 'must be a whole number of seconds',
			published_at: 'is not a real calendar date',
		});
		expect(content.url).toContain('must be a full http(s) URL');
		expect(content.expiration_date).toContain('has a time zone');
	});

	test('refuses unknown keys by name, inside entries too', () => {
		expect(
			issuesOf({
				...base,
				duration: 5,
				prices_data: [{ amount: 1, currency: 'USD', tax: 0 }],
				languages_attributes: [{ languageCode: 'en' }],
			}),
		).toEqual({
			duration: 'is not a field of a course',
			'prices_data[0].tax': 'is not a field of price entries',
			'languages_attributes[0].languageCode': 'is not a field of language entries',
		});
	});

	test('requires name, url and external id; names the course when it can', () => {
		const result = parseCourseJson({ external_id: 'x-9' });
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.externalId).toBe('x-9');
			expect(result.issues.map((i) => i.path).sort()).toEqual(['name', 'url']);
		}
	});
});
