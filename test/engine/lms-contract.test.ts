/**
 * The documented contract, through n8n's execution engine against the project's sandbox (which
 * is exactly as strict as the platform's documents): archive and keep-current-values carry
 * over only what the listing documents, one catalog read per execution, and writes confirmed
 * by default.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { runNode } from '../helpers/workflows';

const COURSES = '/api/developer/v2/courses.json';

const lms = useSandbox();
let clients = 0;

function credentials() {
	clients++;
	// A separate credential per run, so that no token or rate is shared between tests.
	return lms.credentials({ requestTimeout: 10 + clients / 1000 });
}

const full: INodeParameters = {
	resource: 'course',
	operation: 'upsert',
	externalId: '={{ $json.id }}',
	name: '={{ $json.name }}',
	url: 'https://learn.test/c',
	prices: { price: [{ amount: '19.99', currency: 'USD' }] },
	additionalFields: {
		description: 'About it',
		contentType: 'article',
		courseType: 'article',
		level: 'advanced',
		skills: 'sql, data',
		tags: 'onboarding',
		durationSec: 900,
		publishedAt: '2026-01-31',
		expirationDate: '2027-12-31 23:59:59',
		imageUrl: 'https://learn.test/c.png',
		languages: { language: [{ languageCode: 'en', title: 'About' }] },
		groupIds: 'g1, g2',
		channelIds: 'ch1',
	},
};

async function seed(count: number, parameters: INodeParameters = full) {
	const items = Array.from({ length: count }, (_, i) => ({ id: `c-${i}`, name: `Course ${i}` }));
	const run = await runNode({ credentials: credentials(), items, parameters });
	expect(run.error).toBeUndefined();
	return items;
}

function writesOf(path: string) {
	return lms.sandbox.requests().filter((r) => r.method === 'POST' && r.path === path);
}

describe('writes are confirmed by default', () => {
	test('an item succeeds only when its transaction succeeded', async () => {
		const run = await runNode({
			credentials: credentials(),
			items: [{ id: 'c-1', name: 'One' }],
			parameters: { ...full, options: {} },
		});

		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ status: 'success', confirmation: 'confirmed' });
	});

	test('assigning to an unknown learner fails the item with the platform’s message', async () => {
		await seed(1);

		const run = await runNode({
			credentials: credentials(),
			continueOnFail: true,
			parameters: {
				resource: 'assignment',
				operation: 'assign',
				email: 'nobody@unknown.test',
				externalId: 'c-0',
			},
		});

		expect(String(run.items[0].json.error)).toMatch(
			/^User not found: nobody@unknown.test \(transaction [\w-]+ ended with status "failed"\)$/,
		);
	});

	test('with waiting off the output says, in words, that the write is not confirmed', async () => {
		const run = await runNode({
			credentials: credentials(),
			items: [{ id: 'c-1', name: 'One' }],
			parameters: { ...full, options: { waitForCompletion: false } },
		});

		expect(run.items[0].json).toMatchObject({
			status: 'initiated',
			confirmation: 'accepted, not confirmed',
		});
	});
});

describe('archive', () => {
	test('carries over what the listing documents, takes the rest from Additional Fields, and names what will be cleared', async () => {
		await seed(1);
		const before = writesOf(COURSES).length;

		const run = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'course',
				operation: 'archive',
				externalId: 'c-0',
				additionalFields: { contentType: 'article', level: 'advanced' },
			},
		});

		expect(run.error).toBeUndefined();
		const body = writesOf(COURSES)[before].body as Record<string, unknown>;
		expect(body).toMatchObject({
			external_id: 'c-0',
			name: 'Course 0',
			url: 'https://learn.test/c',
			description: 'About it',
			tags: ['onboarding'],
			duration_sec: 900,
			published_at: '2026-01-31',
			image_url: 'https://learn.test/c.png',
			prices_data: [{ amount: 19.99, currency: 'USD' }],
			content_type: 'article',
			level: 'advanced',
			status: 'archived',
		});
		expect(run.items[0].json.clearedFields).toEqual([
			'course_type',
			'expiration_date',
			'languages_attributes',
			'skills',
		]);
		expect(run.items[0].json).toMatchObject({ status: 'success', confirmation: 'confirmed' });
		// What the platform keeps is what was sent: an article stays an article.
		const stored = lms.sandbox.state().courses['c-0'] as unknown as Record<string, unknown>;
		expect(stored).toMatchObject({
			status: 'archived',
			content_type: 'article',
			level: 'advanced',
		});
	});

	test('archiving 5 courses of a 200-course catalog reads the catalog once', async () => {
		await seed(200, { ...full, additionalFields: {} });
		const before = lms.sandbox.requests().length;

		const run = await runNode({
			credentials: credentials(),
			items: [0, 40, 80, 120, 199].map((n) => ({ id: `c-${n}` })),
			parameters: {
				resource: 'course',
				operation: 'archive',
				externalId: '={{ $json.id }}',
				options: { waitForCompletion: false },
			},
		});

		expect(run.error).toBeUndefined();
		const reads = lms.sandbox
			.requests()
			.slice(before)
			.filter((r) => r.method === 'GET' && r.path === COURSES);
		const pageSize = Math.max(
			...reads.map((r) => Number((r.query as Record<string, string>).limit)),
		);
		const served =
			Number((lms.sandbox.options as unknown as Record<string, unknown>).maxPageSize) || pageSize;
		expect(reads.length).toBe(Math.ceil(200 / Math.min(pageSize, served)));
		expect(writesOf(COURSES).slice(-5)).toHaveLength(5);
	});
});

describe('upsert with Keep Current Values', () => {
	test('fills what was left empty from the listing and names what could not be kept', async () => {
		await seed(1);
		const before = writesOf(COURSES).length;

		const run = await runNode({
			credentials: credentials(),
			items: [{ id: 'c-0', name: 'Renamed' }],
			parameters: {
				resource: 'course',
				operation: 'upsert',
				externalId: '={{ $json.id }}',
				name: '={{ $json.name }}',
				url: 'https://learn.test/c2',
				additionalFields: { level: 'beginner' },
				options: { keepCurrentValues: true },
			},
		});

		expect(run.error).toBeUndefined();
		const body = writesOf(COURSES)[before].body as Record<string, unknown>;
		expect(body).toMatchObject({
			name: 'Renamed',
			url: 'https://learn.test/c2',
			level: 'beginner',
			description: 'About it',
			tags: ['onboarding'],
			prices_data: [{ amount: 19.99, currency: 'USD' }],
		});
		expect(run.items[0].json.keptFields).toEqual(
			expect.arrayContaining(['description', 'tags', 'prices_data']),
		);
		expect(run.items[0].json.clearedFields).toEqual([
			'content_type',
			'course_type',
			'expiration_date',
			'languages_attributes',
			'skills',
		]);
	});
});
