import type { Sandbox } from '../../sandbox/server';
import {
	COURSES,
	REQUEST_DATA,
	UUID,
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

/** "Content - list item", in the documents' order: these fields and no others. */
const DOCUMENTED_LIST_FIELDS = [
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
];

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

	it('creates a course and lists exactly the documented fields', async () => {
		const transaction = await writeAndWait(sandbox, token, COURSES, fullCourse);
		expect(transaction).toMatchObject({
			status: 'success',
			response: { message: 'Content created' },
		});

		const answer = await list();
		expect(answer.status).toBe(200);
		expect(answer.body.data).toHaveLength(1);
		const item = answer.body.data[0];
		expect(Object.keys(item)).toEqual(DOCUMENTED_LIST_FIELDS);
		expect(item).toEqual({
			id: expect.stringMatching(UUID),
			name: 'Full course',
			description: 'Everything set',
			images: [{ url: 'https://cdn.example.com/full.png' }],
			url: 'https://courses.example.com/full-1',
			external_id: 'full-1',
			additional_metadata: { duration: 3600, external_id: 'full-1' },
			source_id: expect.stringMatching(UUID),
			organization_id: expect.anything(),
			tags: ['data'],
			published_at: '2024-03-15T00:00:00.000Z',
			duration: 3600,
			duration_sec: 3600,
			restricted_groups: [{ id: 7, name: 'Restricted group 7' }],
			groups: [
				{ id: 1, name: 'Group 1' },
				{ id: 2, name: 'Group 2' },
			],
			channels: [{ id: 'c-9', name: 'Channel c-9' }],
			ecl_id: item.id,
			is_private: true,
			prices_data: fullCourse.prices_data,
			ecl_source_id: expect.stringMatching(UUID),
		});
		expect(new Date(item.published_at).toISOString()).toBe(item.published_at);
		expect(answer.body).not.toHaveProperty('total_count');

		// What the listing leaves out is still held, for state() and the admin paths.
		const stored = sandbox.state().courses['full-1'];
		expect(stored).toMatchObject({
			id: item.id,
			ecl_id: item.id,
			status: 'active',
			level: 'advanced',
			content_type: 'video',
			course_type: 'article',
			skills: ['sql', 'python'],
			languages_attributes: fullCourse.languages_attributes,
			expiration_date: '2030-01-01 12:30:00',
			image_url: 'https://cdn.example.com/full.png',
			restricted_group_ids: [7],
			group_ids: [1, 2],
			channel_ids: ['c-9'],
		});
	});

	it('gives each course its own UUID, kept by updates, with ecl_id equal to id', async () => {
		await writeAndWait(sandbox, token, COURSES, courseBody('u-1'));
		await writeAndWait(sandbox, token, COURSES, courseBody('u-2'));
		const [first, second] = (await list()).body.data;
		for (const item of [first, second]) {
			expect(item.id).toMatch(UUID);
			expect(item.ecl_id).toBe(item.id);
		}
		expect(first.id).not.toBe(second.id);
		await writeAndWait(sandbox, token, COURSES, courseBody('u-1', { name: 'Again' }));
		expect((await list()).body.data[0]).toMatchObject({ id: first.id, ecl_id: first.id });
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
		expect(Object.keys(after)).toEqual(DOCUMENTED_LIST_FIELDS);
		expect(after).toMatchObject({
			id: before.id,
			ecl_id: before.ecl_id,
			name: 'Renamed',
			description: null,
			images: [],
			tags: [],
			groups: [{ id: 3, name: 'Group 3' }],
			channels: [],
			restricted_groups: [],
			is_private: false,
			duration: null,
			duration_sec: null,
			additional_metadata: { duration: null, external_id: 'full-1' },
			published_at: null,
			prices_data: [{ amount: 1, currency: 'USD' }],
		});
		const state = sandbox.state();
		expect(state.writesAppliedByExternalId['full-1']).toBe(2);
		expect(state.courses['full-1']).toMatchObject({
			group_ids: [3],
			level: null,
			skills: [],
			languages_attributes: [],
			content_type: 'course',
			expiration_date: null,
		});
	});

	it('answers an accepted write with the transaction and the echoed payload', async () => {
		const answer = await post(sandbox, COURSES, courseBody('p-1'), token);
		expect(answer.status).toBe(202);
		expect(answer.body).toEqual({
			message: 'Transaction for the course started in background',
			data: {
				id: expect.stringMatching(UUID),
				http_method: 'POST',
				status: 'initiated',
				response: {},
				payload: {
					name: 'Course p-1',
					external_id: 'p-1',
					content_type: 'course',
					prices_data: [],
					url: 'https://courses.example.com/p-1',
					status: 'active',
				},
			},
		});
		// request_data shows the documented transaction, without the payload.
		const polled = await get(sandbox, `${REQUEST_DATA}${answer.body.data.id}`, token);
		expect(Object.keys(polled.body.data).sort()).toEqual([
			'http_method',
			'id',
			'response',
			'status',
		]);
	});

	it('lists in creation order, pages with offset and limit, and cuts a page to maxPageSize', async () => {
		expect(sandbox.options.maxPageSize).toBe(50);
		for (let index = 0; index < 105; index++) {
			const accepted = await post(sandbox, COURSES, courseBody(`bulk-${index}`), token);
			expect(accepted.status).toBe(202);
		}
		const ids = (answer: { body: { data: Array<{ external_id: string }> } }) =>
			answer.body.data.map((item) => item.external_id);

		// Asking for 100 gets 50: a client must page by what it gets back.
		const cut = await list('?offset=0&limit=100&return_total_count=true');
		expect(cut.body.total_count).toBe(105);
		expect(cut.body.data).toHaveLength(50);
		expect(ids(cut)[0]).toBe('bulk-0');
		expect(ids(cut)[49]).toBe('bulk-49');

		const pages: string[] = [];
		for (let offset = 0; ; ) {
			const page = await list(`?offset=${offset}&limit=100&return_total_count=true`);
			if (page.body.data.length === 0) break;
			pages.push(...ids(page));
			offset += page.body.data.length;
		}
		expect(pages).toEqual(Array.from({ length: 105 }, (_, index) => `bulk-${index}`));

		expect(ids(await list('?offset=100&limit=7'))).toEqual([
			'bulk-100',
			'bulk-101',
			'bulk-102',
			'bulk-103',
			'bulk-104',
		]);
		expect((await list('?offset=200')).body.data).toEqual([]);
	});

	it('serves 10 when no limit is sent, and maxPageSize when that is smaller', async () => {
		for (let index = 0; index < 30; index++) {
			await post(sandbox, COURSES, courseBody(`d-${index}`), token);
		}
		const defaultPage = await list('?offset=20');
		expect(defaultPage.body.data).toHaveLength(10);
		expect(defaultPage.body.data[0].external_id).toBe('d-20');
		expect((await list()).body.data).toHaveLength(10);

		sandbox.configure({ maxPageSize: 4 });
		try {
			expect((await list()).body.data).toHaveLength(4);
			expect((await list('?limit=30')).body.data).toHaveLength(4);
			expect((await list('?limit=3')).body.data).toHaveLength(3);
			sandbox.configure({ maxPageSize: 100 });
			expect((await list('?limit=30')).body.data).toHaveLength(30);
		} finally {
			sandbox.configure({ maxPageSize: 50 });
		}
	});

	it('gives total_count only for return_total_count=true', async () => {
		await writeAndWait(sandbox, token, COURSES, courseBody('t-1'));
		expect((await list('?return_total_count=true')).body).toEqual({
			data: [expect.any(Object)],
			total_count: 1,
		});
		expect((await list('?return_total_count=false')).body).toEqual({ data: [expect.any(Object)] });
	});

	it.each([
		['limit', '?limit=0'],
		['limit', '?limit=abc'],
		['limit', '?limit=1.5'],
		['limit', '?limit=%2B5'],
		['limit', '?limit=1e1'],
		['limit', '?limit='],
		['offset', '?offset=-1'],
		['offset', '?offset=%205'],
		['return_total_count', '?return_total_count=1'],
		['return_total_count', '?return_total_count=True'],
		['search', '?search=data'],
		['external_id', '?external_id=t-1'],
		['limit', '?limit=5&limit=6'],
	])('refuses the paging that names %s (%s) with 422', async (field, query) => {
		const answer = await list(query);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
		expect(answer.body.message).toContain(field);
	});

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
		['prices_data[0]', courseBody('v-1', { prices_data: [5] })],
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
		['prices_data[0].price', courseBody('v-1', { prices_data: [{ price: 1, currency: 'USD' }] })],
		['content_type', courseBody('v-1', { content_type: 'podcast' })],
		['course_type', courseBody('v-1', { course_type: 'webinar' })],
		['status', courseBody('v-1', { status: 'deleted' })],
		['level', courseBody('v-1', { level: 'expert' })],
		['is_private', courseBody('v-1', { is_private: 'yes' })],
		['duration_sec', courseBody('v-1', { duration_sec: 12.5 })],
		['published_at', courseBody('v-1', { published_at: '2024-02-30' })],
		['published_at', courseBody('v-1', { published_at: '15/03/2024' })],
		['published_at', courseBody('v-1', { published_at: '2024-03-15T00:00:00Z' })],
		['published_at', courseBody('v-1', { published_at: '2024-03-15T00:00:00.000Z' })],
		['published_at', courseBody('v-1', { published_at: '2024-03-15 00:00:00' })],
		['published_at', courseBody('v-1', { published_at: '2024-03-15T10:00' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01T12:30:00' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01T12:30:00Z' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01 12:30:00Z' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01 12:30:00.000' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01 12:30' })],
		['expiration_date', courseBody('v-1', { expiration_date: '2030-01-01 24:00:00' })],
		['skills', courseBody('v-1', { skills: 'sql,python' })],
		['tags', courseBody('v-1', { tags: [1, 2] })],
		['image_url', courseBody('v-1', { image_url: 'ftp://x' })],
		[
			'languages_attributes[0].language_code',
			courseBody('v-1', { languages_attributes: [{ language_code: 'eng', title: 'T' }] }),
		],
		[
			'languages_attributes[0].language_code',
			courseBody('v-1', { languages_attributes: [{ language_code: 'e' }] }),
		],
		[
			'languages_attributes[0].title',
			courseBody('v-1', { languages_attributes: [{ language_code: 'en', title: 7 }] }),
		],
		[
			'languages_attributes[0].name',
			courseBody('v-1', { languages_attributes: [{ language_code: 'en', name: 'T' }] }),
		],
		['group_ids', courseBody('v-1', { group_ids: 'a,b' })],
		['channel_ids', courseBody('v-1', { channel_ids: [{ id: 1 }] })],
		['restricted_group_ids', courseBody('v-1', { restricted_group_ids: [1.5] })],
		// Fields the documents do not list: a misspelling would otherwise vanish unnoticed.
		['image', courseBody('v-1', { image: 'https://cdn.example.com/x.png' })],
		['languages', courseBody('v-1', { languages: [] })],
		['duration', courseBody('v-1', { duration: 60 })],
		['id', courseBody('v-1', { id: 'abc' })],
	])('answers 422 naming %s', async (field, body) => {
		const answer = await post(sandbox, COURSES, body, token);
		expect(answer.status).toBe(422);
		expect(answer.body.message).toEqual(expect.any(String));
		expect(answer.body.message).toContain(field);
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
		expect(answer.body.data).toMatchObject({
			id: expect.stringMatching(UUID),
			http_method: 'POST',
			status: 'initiated',
			response: {},
		});
	});

	it('takes a language without a title, and every part of a language and a price as optional', async () => {
		const body = courseBody('v-lang', {
			languages_attributes: [
				{ language_code: 'de' },
				{ language_code: 'en', url: 'https://courses.example.com/en' },
				{ title: 'Without a code' },
			],
			prices_data: [{ amount: 5 }, { currency: 'INR' }],
		});
		const transaction = await writeAndWait(sandbox, token, COURSES, body);
		expect(transaction.status).toBe('success');
		expect(sandbox.state().courses['v-lang']).toMatchObject({
			languages_attributes: [
				{ language_code: 'de', title: null, url: null, description: null },
				{
					language_code: 'en',
					title: null,
					url: 'https://courses.example.com/en',
					description: null,
				},
				{ language_code: null, title: 'Without a code', url: null, description: null },
			],
			prices_data: [{ amount: 5 }, { currency: 'INR' }],
		});
	});

	it('needs a JSON content type and a JSON body', async () => {
		const transactionsBefore = sandbox.state().transactions.length;
		const plain = await post(sandbox, COURSES, courseBody('v-3'), token, {
			'Content-Type': 'text/plain',
		});
		expect(plain.status).toBe(415);
		const broken = await fetch(`${sandbox.url}${COURSES}`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${token}`,
				Accept: 'application/json',
				'Content-Type': 'application/json',
			},
			body: '{"name": ',
		});
		expect(broken.status).toBe(400);
		const notAnObject = await post(sandbox, COURSES, [courseBody('v-3')], token);
		expect(notAnObject.status).toBe(422);
		const queried = await post(sandbox, `${COURSES}?external_id=v-3`, courseBody('v-3'), token);
		expect(queried.status).toBe(422);
		expect(Object.keys(queried.body.errors)).toEqual(['external_id']);
		expect(sandbox.state().transactions).toHaveLength(transactionsBefore);
	});
});

describe('the documented headers on every API call', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		token = await issueToken(sandbox);
	});
	afterAll(() => sandbox.close());

	it.each([
		['no Accept', { Accept: undefined }, 406],
		['Accept */*', { Accept: '*/*' }, 406],
		['Accept text/html', { Accept: 'text/html' }, 406],
		['no Content-Type', { 'Content-Type': undefined }, 415],
		['Content-Type text/plain', { 'Content-Type': 'text/plain' }, 415],
	])('refuses a list call with %s', async (_case, change, status) => {
		const answer = await get(sandbox, COURSES, token, change);
		expect(answer.status).toBe(status);
		expect(answer.body.message).toEqual(expect.any(String));
	});

	it('refuses a write or a transaction read without them, and queues nothing', async () => {
		const accepted = await post(sandbox, COURSES, courseBody('h-1'), token);
		expect(accepted.status).toBe(202);
		const before = sandbox.state().transactions.length;
		expect(
			(await post(sandbox, COURSES, courseBody('h-2'), token, { Accept: undefined })).status,
		).toBe(406);
		expect(sandbox.state().transactions).toHaveLength(before);
		const path = `${REQUEST_DATA}${accepted.body.data.id}`;
		expect((await get(sandbox, path, token, { 'Content-Type': undefined })).status).toBe(415);
		expect((await get(sandbox, path, token)).status).toBe(200);
	});

	it('takes parameters on the media types and application/json among others in Accept', async () => {
		const answer = await get(sandbox, COURSES, token, {
			Accept: 'text/plain, application/json;q=0.9',
			'Content-Type': 'application/json; charset=utf-8',
		});
		expect(answer.status).toBe(200);
	});
});
