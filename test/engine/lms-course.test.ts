import nock from 'nock';

import {
	BASE_URL,
	accepted,
	transaction,
	credentialsWithToken,
	isolateNetwork,
} from '../helpers/lms';
import { runNode } from '../helpers/workflows';

const COURSES = '/api/developer/v2/courses.json';

isolateNetwork();

describe('course upsert', () => {
	test('sends every documented field in the API shape', async () => {
		const credentials = credentialsWithToken();
		let body: unknown;
		nock(BASE_URL)
			.post(COURSES, (b) => ((body = b), true))
			.reply(202, accepted('tx-9'));

		const run = await runNode({
			credentials,
			parameters: {
				resource: 'course',
				operation: 'upsert',
				externalId: 'ext-1',
				name: 'Safety basics',
				url: 'https://learn.test/safety',
				options: { waitForCompletion: false },
				prices: {
					price: [
						{ amount: 12.5, currency: 'USD' },
						{ amount: 999, currency: 'INR' },
					],
				},
				additionalFields: {
					description: 'All about safety',
					contentType: 'video',
					courseType: 'course',
					isPrivate: true,
					durationSec: 3600,
					publishedAt: '2026-01-31',
					status: 'active',
					level: 'intermediate',
					skills: 'safety, compliance',
					tags: 'onboarding,required ,',
					imageUrl: 'https://learn.test/safety.png',
					languages: {
						language: [
							{
								languageCode: 'EN',
								title: 'Safety',
								url: 'https://learn.test/en',
								description: 'English',
							},
						],
					},
					expirationDate: '2027-12-31 23:59:59',
					groupIds: '11,12',
					channelIds: '21',
					restrictedGroupIds: '31, 32',
				},
			},
		});

		expect(run.error).toBeUndefined();
		expect(body).toEqual({
			external_id: 'ext-1',
			name: 'Safety basics',
			url: 'https://learn.test/safety',
			prices_data: [
				{ amount: 12.5, currency: 'USD' },
				{ amount: 999, currency: 'INR' },
			],
			description: 'All about safety',
			content_type: 'video',
			course_type: 'course',
			is_private: true,
			duration_sec: 3600,
			published_at: '2026-01-31',
			status: 'active',
			level: 'intermediate',
			skills: ['safety', 'compliance'],
			tags: ['onboarding', 'required'],
			image_url: 'https://learn.test/safety.png',
			languages_attributes: [
				{
					language_code: 'en',
					title: 'Safety',
					url: 'https://learn.test/en',
					description: 'English',
				},
			],
			expiration_date: '2027-12-31 23:59:59',
			group_ids: ['11', '12'],
			channel_ids: ['21'],
			restricted_group_ids: ['31', '32'],
		});
		expect(run.items).toEqual([
			{
				json: {
					externalId: 'ext-1',
					transactionId: 'tx-9',
					status: 'initiated',
					message: 'Request accepted',
					confirmation: 'accepted, not confirmed',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('sends prices_data [] when no price is given, and nothing that was not given', async () => {
		const credentials = credentialsWithToken();
		let body: unknown;
		nock(BASE_URL)
			.post(COURSES, (b) => ((body = b), true))
			.reply(202, accepted('tx-1'));

		await runNode({
			credentials,
			parameters: {
				resource: 'course',
				operation: 'upsert',
				externalId: 'e',
				name: 'n',
				url: 'https://x.test/',
				options: { waitForCompletion: false },
			},
		});

		expect(body).toEqual({ external_id: 'e', name: 'n', url: 'https://x.test/', prices_data: [] });
	});

	test('accepts arrays from expressions for list fields', async () => {
		const credentials = credentialsWithToken();
		let body: Record<string, unknown> = {};
		nock(BASE_URL)
			.post(COURSES, (b) => ((body = b), true))
			.reply(202, accepted('tx-1'));

		await runNode({
			credentials,
			items: [{ tags: ['a', 'b'], groups: [7, 8] }],
			parameters: {
				resource: 'course',
				operation: 'upsert',
				externalId: 'e',
				name: 'n',
				url: 'https://x.test/',
				options: { waitForCompletion: false },
				additionalFields: { tags: '={{ $json.tags }}', groupIds: '={{ $json.groups }}' },
			},
		});

		expect(body.tags).toEqual(['a', 'b']);
		expect(body.group_ids).toEqual(['7', '8']);
	});

	test('waits for the transaction when asked', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL).post(COURSES).reply(202, accepted('tx-w'));
		nock(BASE_URL)
			.get('/api/developer/v2/request_data/tx-w')
			.reply(200, transaction('tx-w', 'initiated'));
		nock(BASE_URL)
			.get('/api/developer/v2/request_data/tx-w')
			.reply(200, transaction('tx-w', 'success', 'Content created'));

		const run = await runNode({
			credentials,
			parameters: {
				resource: 'course',
				operation: 'upsert',
				externalId: 'e',
				name: 'n',
				url: 'https://x.test/',
				options: { waitForCompletion: true, timeout: 10 },
			},
		});

		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({
			transactionId: 'tx-w',
			status: 'success',
			message: 'Content created',
		});
		expect(nock.isDone()).toBe(true);
	});
});

describe('course getMany', () => {
	const page = (from: number, count: number) =>
		Array.from({ length: count }, (_, i) => ({
			id: String(from + i),
			external_id: `c-${from + i}`,
			name: `Course ${from + i}`,
		}));

	test('Return All pages through the whole catalog by offset', async () => {
		const credentials = credentialsWithToken();
		const calls: string[] = [];
		nock(BASE_URL)
			.get(COURSES)
			.query(
				(q) => (calls.push(`${q.offset}/${q.limit}/${q.return_total_count}`), q.offset === '0'),
			)
			.reply(200, { data: page(0, 100), total_count: 230 });
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => (calls.push(`${q.offset}/${q.limit}`), q.offset === '100'))
			.reply(200, { data: page(100, 100), total_count: 230 });
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => (calls.push(`${q.offset}/${q.limit}`), q.offset === '200'))
			.reply(200, { data: page(200, 30), total_count: 230 });

		const run = await runNode({
			credentials,
			parameters: { resource: 'course', operation: 'getMany', returnAll: true },
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(230);
		expect(run.items.map((i) => i.json.external_id)).toEqual(
			page(0, 230).map((c) => c.external_id),
		);
		expect(run.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(calls).toEqual(['0/100/true', '100/100', '200/100']);
	});

	test('keeps paging when the server serves smaller pages than asked for', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => q.offset === '5')
			.reply(200, { data: page(5, 2), total_count: 9 });
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => q.offset === '7')
			.reply(200, { data: page(7, 2), total_count: 9 });

		const run = await runNode({
			credentials,
			parameters: {
				resource: 'course',
				operation: 'getMany',
				returnAll: true,
				options: { offset: 5 },
			},
		});

		expect(run.items.map((i) => i.json.external_id)).toEqual(['c-5', 'c-6', 'c-7', 'c-8']);
	});

	test('Limit stops at the limit', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => q.offset === '0' && q.limit === '3')
			.reply(200, { data: page(0, 3), total_count: 50 });

		const run = await runNode({
			credentials,
			parameters: { resource: 'course', operation: 'getMany', returnAll: false, limit: 3 },
		});

		expect(run.items).toHaveLength(3);
		expect(nock.isDone()).toBe(true);
	});
});

describe('course getMany output', () => {
	/** A listing item with every documented field (20). */
	const listed = (n: number) => ({
		id: `id-${n}`,
		name: `Course ${n}`,
		description: `About course ${n}`,
		images: [{ url: `https://learn.test/${n}.png` }],
		url: `https://learn.test/${n}`,
		external_id: `c-${n}`,
		additional_metadata: { duration: 600, external_id: `c-${n}` },
		source_id: 'src-1',
		organization_id: 'org-1',
		tags: ['safety'],
		published_at: '2024-05-01T00:00:00.000Z',
		duration: 600,
		duration_sec: 600,
		restricted_groups: [],
		groups: [{ id: 1 }],
		channels: [],
		ecl_id: `ecl-${n}`,
		is_private: false,
		prices_data: [{ amount: 10, currency: 'USD' }],
		ecl_source_id: 'ecl-src',
	});
	const answer = () =>
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => q.offset === '0')
			.reply(200, { data: [listed(1), listed(2)], total_count: 2 });

	test('by default (saved workflows) every course is returned as listed', async () => {
		answer();
		const run = await runNode({
			credentials: credentialsWithToken(),
			parameters: { resource: 'course', operation: 'getMany', returnAll: true },
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json)).toEqual([listed(1), listed(2)]);
	});

	test('Simplified keeps 10 fields under the listing names', async () => {
		answer();
		const run = await runNode({
			credentials: credentialsWithToken(),
			parameters: { resource: 'course', operation: 'getMany', returnAll: true, output: 'simple' },
		});
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual({
			id: 'id-1',
			external_id: 'c-1',
			name: 'Course 1',
			url: 'https://learn.test/1',
			description: 'About course 1',
			tags: ['safety'],
			published_at: '2024-05-01T00:00:00.000Z',
			duration_sec: 600,
			is_private: false,
			prices_data: [{ amount: 10, currency: 'USD' }],
		});
		expect(run.items.map((i) => i.json.external_id)).toEqual(['c-1', 'c-2']);
		expect(run.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('Select Included Fields keeps the chosen fields only', async () => {
		answer();
		const run = await runNode({
			credentials: credentialsWithToken(),
			parameters: {
				resource: 'course',
				operation: 'getMany',
				returnAll: true,
				output: 'fields',
				fields: ['external_id', 'ecl_id'],
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json)).toEqual([
			{ external_id: 'c-1', ecl_id: 'ecl-1' },
			{ external_id: 'c-2', ecl_id: 'ecl-2' },
		]);
	});

	test('a field the listing does not document is refused before the catalog is read', async () => {
		const catalog = answer();
		const run = await runNode({
			credentials: credentialsWithToken(),
			parameters: {
				resource: 'course',
				operation: 'getMany',
				returnAll: true,
				output: 'fields',
				fields: '={{ ["name", "level"] }}',
			},
		});
		expect(run.error?.message).toContain('Fields: unknown field "level"');
		expect(catalog.isDone()).toBe(false);
	});
});

describe('course archive', () => {
	const existing = {
		id: '501',
		name: 'Old course',
		description: 'Was good',
		images: [{ url: 'https://learn.test/old.png' }],
		url: 'https://learn.test/old',
		external_id: 'old-1',
		additional_metadata: { duration: 600, external_id: 'old-1' },
		tags: ['legacy'],
		published_at: '2024-05-01T10:00:00.000Z',
		duration: 600,
		duration_sec: 600,
		restricted_groups: [{ id: 3 }],
		groups: [{ id: 1 }, { id: 2 }],
		channels: [{ id: 9 }],
		is_private: false,
		prices_data: [{ amount: 5, currency: 'USD' }],
		level: 'beginner',
	};

	test('finds the course on a later page and posts what the listing documents, with status archived', async () => {
		const credentials = credentialsWithToken();
		const filler = Array.from({ length: 100 }, (_, i) => ({
			id: String(i),
			external_id: `other-${i}`,
			name: 'x',
			url: 'https://x.test',
		}));
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => q.offset === '0')
			.reply(200, { data: filler, total_count: 101 });
		nock(BASE_URL)
			.get(COURSES)
			.query((q) => q.offset === '100')
			.reply(200, { data: [existing], total_count: 101 });
		let body: unknown;
		nock(BASE_URL)
			.post(COURSES, (b) => ((body = b), true))
			.reply(202, accepted('tx-a'));

		const run = await runNode({
			credentials,
			parameters: {
				resource: 'course',
				operation: 'archive',
				externalId: 'old-1',
				options: { waitForCompletion: false },
			},
		});

		expect(run.error).toBeUndefined();
		expect(body).toEqual({
			external_id: 'old-1',
			name: 'Old course',
			url: 'https://learn.test/old',
			prices_data: [{ amount: 5, currency: 'USD' }],
			description: 'Was good',
			is_private: false,
			duration_sec: 600,
			published_at: '2024-05-01',
			tags: ['legacy'],
			image_url: 'https://learn.test/old.png',
			group_ids: ['1', '2'],
			channel_ids: ['9'],
			restricted_group_ids: ['3'],
			status: 'archived',
		});
		expect(run.items[0].json).toMatchObject({
			externalId: 'old-1',
			courseId: '501',
			transactionId: 'tx-a',
			// The documented listing has none of these: the platform will clear them.
			clearedFields: [
				'content_type',
				'course_type',
				'expiration_date',
				'languages_attributes',
				'level',
				'skills',
			],
		});
	});

	test('a course that is not in the catalog is a clear per-item error', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL)
			.get(COURSES)
			.query(true)
			.reply(200, { data: [existing], total_count: 1 });

		const run = await runNode({
			credentials,
			continueOnFail: true,
			parameters: { resource: 'course', operation: 'archive', externalId: 'missing-7' },
		});

		expect(run.items).toHaveLength(1);
		expect(run.items[0].json.error).toBe('No course with external ID "missing-7" was found');
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('course get', () => {
	const listed = (n: number) => ({
		id: String(700 + n),
		external_id: `get-${n}`,
		name: `Course ${n}`,
		url: `https://learn.test/get/${n}`,
		tags: ['one', 'two'],
		duration_sec: 60 * n,
	});

	test("finds each item's course in one read of the catalog, by external ID or picker", async () => {
		const credentials = credentialsWithToken();
		const pages = nock(BASE_URL)
			.get(COURSES)
			.query((q) => q.offset === '0')
			.reply(200, { data: [listed(1), listed(2)], total_count: 3 })
			.get(COURSES)
			.query((q) => q.offset === '2')
			.reply(200, { data: [listed(3)], total_count: 3 });

		const run = await runNode({
			credentials,
			items: [{ id: 'get-3' }, { id: 'get-1' }, { id: 'get-3' }],
			parameters: {
				resource: 'course',
				operation: 'get',
				externalId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
		});

		expect(run.error).toBeUndefined();
		expect(pages.isDone()).toBe(true);
		expect(run.items.map((item) => [item.json.id, item.json.external_id, item.pairedItem])).toEqual(
			[
				['703', 'get-3', { item: 0 }],
				['701', 'get-1', { item: 1 }],
				['703', 'get-3', { item: 2 }],
			],
		);
		expect(run.items[0].json).toMatchObject({
			name: 'Course 3',
			url: 'https://learn.test/get/3',
			tags: ['one', 'two'],
			duration_sec: 180,
		});
	});

	test('a course that is not in the catalog fails that item by name', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL)
			.get(COURSES)
			.query(true)
			.reply(200, { data: [listed(1)], total_count: 1 });

		const run = await runNode({
			credentials,
			continueOnFail: true,
			items: [{ id: 'get-1' }, { id: 'get-9' }],
			parameters: { resource: 'course', operation: 'get', externalId: '={{ $json.id }}' },
		});

		expect(run.items.map((item) => item.json.external_id ?? item.json.error)).toEqual([
			'get-1',
			'No course with external ID "get-9" was found',
		]);
		expect(run.items[1].pairedItem).toEqual({ item: 1 });
	});
});
