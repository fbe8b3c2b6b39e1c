import type { Sandbox } from '../../sandbox/server';
import {
	COURSES,
	courseBody,
	get,
	issueToken,
	post,
	startTestSandbox,
	writeAndWait,
} from './helpers';

const fullCourse = courseBody('full-1', {
	name: 'Full course',
	description: 'Everything set',
	prices_data: [
		{ amount: 499, currency: 'INR' },
		{ amount: 9.99, currency: 'USD' },
	],
	content_type: 'video',
	course_type: 'article',
	is_private: true,
	duration_sec: 3600,
	published_at: '2024-03-15',
	status: 'active',
	level: 'advanced',
	skills: ['sql', 'python'],
	tags: ['data'],
	image_url: 'https://cdn.example.com/full.png',
	languages_attributes: [
		{
			language_code: 'fr',
			title: 'Cours complet',
			url: 'https://courses.example.com/fr',
			description: 'FR',
		},
	],
	expiration_date: '2030-01-01 12:30:00',
	restricted_group_ids: [7],
	group_ids: [1, 2],
	channel_ids: ['c-9'],
});

describe('course upsert and list', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		token = await issueToken(sandbox);
	});
	beforeEach(() => sandbox.reset());
	afterAll(() => sandbox.close());

	const list = async (query = '') => get(sandbox, `${COURSES}${query}`, token);

	it('creates a course and lists every metadata field', async () => {
		const transaction = await writeAndWait(sandbox, token, COURSES, fullCourse);
		expect(transaction).toMatchObject({
			status: 'success',
			response: { message: 'Content created' },
		});

		const answer = await list();
		expect(answer.status).toBe(200);
		expect(answer.body.data).toHaveLength(1);
		const item = answer.body.data[0];
		expect(item).toMatchObject({
			id: expect.stringMatching(/^\d+$/),
			name: 'Full course',
			description: 'Everything set',
			images: [{ url: 'https://cdn.example.com/full.png' }],
			url: 'https://courses.example.com/full-1',
			external_id: 'full-1',
			additional_metadata: { duration: 3600, external_id: 'full-1' },
			tags: ['data'],
			published_at: '2024-03-15T00:00:00.000Z',
			duration: 3600,
			duration_sec: 3600,
			restricted_groups: [{ id: 7 }],
			groups: [{ id: 1 }, { id: 2 }],
			channels: [{ id: 'c-9' }],
			is_private: true,
			prices_data: fullCourse.prices_data,
			status: 'active',
			level: 'advanced',
			content_type: 'video',
			course_type: 'article',
			skills: ['sql', 'python'],
			languages: fullCourse.languages_attributes,
			expiration_date: '2030-01-01 12:30:00',
		});
		for (const field of ['source_id', 'organization_id', 'ecl_id', 'ecl_source_id']) {
			expect(item[field]).toBeTruthy();
		}
		expect(answer.body).not.toHaveProperty('total_count');
	});

	it('replaces the whole metadata on an update with the same external_id', async () => {
		await writeAndWait(sandbox, token, COURSES, fullCourse);
		const [before] = (await list()).body.data;

		const update = courseBody('full-1', {
			name: 'Renamed',
			prices_data: [{ amount: 1, currency: 'USD' }],
			group_ids: [3],
		});
		const transaction = await writeAndWait(sandbox, token, COURSES, update);
		expect(transaction).toMatchObject({
			status: 'success',
			response: { message: 'Content updated' },
		});

		const answer = await list('?return_total_count=true');
		expect(answer.body.total_count).toBe(1);
		const [after] = answer.body.data;
		expect(after).toMatchObject({
			id: before.id,
			ecl_id: before.ecl_id,
			name: 'Renamed',
			description: null,
			images: [],
			tags: [],
			skills: [],
			languages: [],
			groups: [{ id: 3 }],
			channels: [],
			restricted_groups: [],
			is_private: false,
			duration: null,
			published_at: null,
			level: null,
			content_type: 'course',
			expiration_date: null,
			prices_data: [{ amount: 1, currency: 'USD' }],
		});
		const state = sandbox.state();
		expect(state.writesAppliedByExternalId['full-1']).toBe(2);
		expect(state.courses['full-1'].group_ids).toEqual([3]);
	});

	it('lists in creation order, pages with offset and limit, and caps a page at 100', async () => {
		for (let index = 0; index < 105; index++) {
			const accepted = await post(sandbox, COURSES, courseBody(`bulk-${index}`), token);
			expect(accepted.status).toBe(202);
		}
		const capped = await list('?limit=1000&return_total_count=true');
		expect(capped.body.total_count).toBe(105);
		expect(capped.body.data).toHaveLength(100);
		expect(capped.body.data[0].external_id).toBe('bulk-0');
		expect(capped.body.data[99].external_id).toBe('bulk-99');

		const rest = await list('?offset=100&limit=100&return_total_count=true');
		expect(rest.body.data.map((item: { external_id: string }) => item.external_id)).toEqual([
			'bulk-100',
			'bulk-101',
			'bulk-102',
			'bulk-103',
			'bulk-104',
		]);
		expect(rest.body.total_count).toBe(105);

		const defaultPage = await list('?offset=20');
		expect(defaultPage.body.data).toHaveLength(10);
		expect(defaultPage.body.data[0].external_id).toBe('bulk-20');
		expect((await list('?offset=200')).body.data).toEqual([]);
	});

	it.each([['?limit=0'], ['?limit=abc'], ['?offset=-1']])(
		'refuses the paging %s with 422',
		async (query) => {
			const answer = await list(query);
			expect(answer.status).toBe(422);
			expect(answer.body.errors).toBeDefined();
		},
	);

	it('refuses to make archived content active again, and changes nothing', async () => {
		await writeAndWait(sandbox, token, COURSES, courseBody('arch-1', { tags: ['kept'] }));
		const archived = await writeAndWait(
			sandbox,
			token,
			COURSES,
			courseBody('arch-1', { status: 'archived', tags: ['kept'] }),
		);
		expect(archived.status).toBe('success');

		for (const reactivation of [{ status: 'active' }, {}]) {
			const failed = await writeAndWait(
				sandbox,
				token,
				COURSES,
				courseBody('arch-1', { name: 'Back', ...reactivation }),
			);
			expect(failed).toMatchObject({
				status: 'failed',
				response: { message: 'Archived content cannot be made active again' },
			});
		}
		const state = sandbox.state();
		expect(state.courses['arch-1']).toMatchObject({
			status: 'archived',
			name: 'Course arch-1',
			tags: ['kept'],
		});
		expect(state.writesAppliedByExternalId['arch-1']).toBe(2);

		const stillArchived = await writeAndWait(
			sandbox,
			token,
			COURSES,
			courseBody('arch-1', { status: 'archived', name: 'Renamed' }),
		);
		expect(stillArchived.status).toBe('success');
	});
});

describe('course validation', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		token = await issueToken(sandbox);
	});
	afterAll(() => sandbox.close());

	const without = (field: string) => {
		const body = courseBody('v-1');
		delete body[field];
		return body;
	};

	it.each([
		['name', without('name')],
		['url', without('url')],
		['external_id', without('external_id')],
		['prices_data', without('prices_data')],
		['name', courseBody('v-1', { name: 42 })],
		['url', courseBody('v-1', { url: 'not a url' })],
		['prices_data', courseBody('v-1', { prices_data: { amount: 1, currency: 'USD' } })],
		['prices_data[0].amount', courseBody('v-1', { prices_data: [{ amount: 0, currency: 'USD' }] })],
		[
			'prices_data[0].amount',
			courseBody('v-1', { prices_data: [{ amount: '5', currency: 'USD' }] }),
		],
		[
			'prices_data[1].currency',
			courseBody('v-1', {
				prices_data: [
					{ amount: 1, currency: 'USD' },
					{ amount: 1, currency: 'EUR' },
				],
			}),
		],
		['content_type', courseBody('v-1', { content_type: 'podcast' })],
		['course_type', courseBody('v-1', { course_type: 'webinar' })],
		['status', courseBody('v-1', { status: 'deleted' })],
		['level', courseBody('v-1', { level: 'expert' })],
		['is_private', courseBody('v-1', { is_private: 'yes' })],
		['duration_sec', courseBody('v-1', { duration_sec: 12.5 })],
		['published_at', courseBody('v-1', { published_at: '2024-02-30' })],
		['published_at', courseBody('v-1', { published_at: '15/03/2024' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01' })],
		['skills', courseBody('v-1', { skills: 'sql,python' })],
		['tags', courseBody('v-1', { tags: [1, 2] })],
		['image_url', courseBody('v-1', { image_url: 'ftp://x' })],
		[
			'languages_attributes[0].language_code',
			courseBody('v-1', { languages_attributes: [{ language_code: 'eng', title: 'T' }] }),
		],
		[
			'languages_attributes[0].title',
			courseBody('v-1', { languages_attributes: [{ language_code: 'en' }] }),
		],
		['group_ids', courseBody('v-1', { group_ids: 'a,b' })],
		['channel_ids', courseBody('v-1', { channel_ids: [{ id: 1 }] })],
		['restricted_group_ids', courseBody('v-1', { restricted_group_ids: [1.5] })],
	])('answers 422 naming %s', async (field, body) => {
		const answer = await post(sandbox, COURSES, body, token);
		expect(answer.status).toBe(422);
		expect(answer.body.message).toEqual(expect.any(String));
		expect(Object.keys(answer.body.errors)).toEqual([field]);
		expect(answer.body.errors[field]).toEqual([expect.any(String)]);
	});

	it('accepts free content (prices_data []) and nulls for optional fields', async () => {
		const answer = await post(
			sandbox,
			COURSES,
			courseBody('v-2', { description: null, level: null }),
			token,
		);
		expect(answer.status).toBe(202);
		expect(answer.body).toEqual({
			message: 'Request accepted',
			data: { id: expect.any(String), http_method: 'POST', status: 'initiated', response: {} },
		});
	});

	it('needs a JSON content type and a JSON body', async () => {
		const transactionsBefore = sandbox.state().transactions.length;
		const headers = { Authorization: `Bearer ${token}` };
		const plain = await fetch(`${sandbox.url}${COURSES}`, {
			method: 'POST',
			headers: { ...headers, 'Content-Type': 'text/plain' },
			body: JSON.stringify(courseBody('v-3')),
		});
		expect(plain.status).toBe(415);
		const broken = await fetch(`${sandbox.url}${COURSES}`, {
			method: 'POST',
			headers: { ...headers, 'Content-Type': 'application/json' },
			body: '{"name": ',
		});
		expect(broken.status).toBe(400);
		const notAnObject = await post(sandbox, COURSES, [courseBody('v-3')], token);
		expect(notAnObject.status).toBe(422);
		expect(sandbox.state().transactions).toHaveLength(transactionsBefore);
	});
});
