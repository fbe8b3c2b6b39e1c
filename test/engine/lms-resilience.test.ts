import nock from 'nock';

import {
	BASE_URL,
	accepted,
	lmsCredentials,
	credentialsWithToken,
	isolateNetwork,
} from '../helpers/lms';
import { runNode } from '../helpers/workflows';

const COURSES = '/api/developer/v2/courses.json';

const upsertById = {
	resource: 'course',
	operation: 'upsert',
	externalId: '={{ $json.id }}',
	name: '={{ $json.name }}',
	url: 'https://learn.test/c',
	options: { waitForCompletion: false },
};

isolateNetwork();

test('a 429 with Retry-After is waited out and the request repeated', async () => {
	const credentials = credentialsWithToken();
	// How long the pause lasts is checked on a fake clock (test/unit/shared/request/call.test.ts).
	nock(BASE_URL).post(COURSES).reply(429, { message: 'Too many requests' }, { 'Retry-After': '1' });
	nock(BASE_URL).post(COURSES).reply(202, accepted('tx-1'));

	const run = await runNode({
		credentials,
		items: [{ id: 'a', name: 'A' }],
		parameters: upsertById,
	});

	expect(run.error).toBeUndefined();
	expect(run.items[0].json.transactionId).toBe('tx-1');
	expect(nock.isDone()).toBe(true);
});

test('a 429 without Retry-After is retried with backoff', async () => {
	const credentials = credentialsWithToken();
	nock(BASE_URL).post(COURSES).times(2).reply(429, { message: 'Too many requests' });
	nock(BASE_URL).post(COURSES).reply(202, accepted('tx-2'));

	const run = await runNode({
		credentials,
		items: [{ id: 'a', name: 'A' }],
		parameters: upsertById,
	});

	expect(run.error).toBeUndefined();
	expect(run.items[0].json.transactionId).toBe('tx-2');
	expect(nock.isDone()).toBe(true);
});

test('5xx answers and dropped connections are retried for upserts, which are safe to repeat', async () => {
	const credentials = credentialsWithToken();
	nock(BASE_URL).post(COURSES).reply(503, 'Service Unavailable');
	nock(BASE_URL)
		.post(COURSES)
		.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
	nock(BASE_URL).post(COURSES).reply(202, accepted('tx-3'));

	const run = await runNode({
		credentials,
		items: [{ id: 'a', name: 'A' }],
		parameters: upsertById,
	});

	expect(run.error).toBeUndefined();
	expect(run.items[0].json.transactionId).toBe('tx-3');
	expect(nock.isDone()).toBe(true);
});

test('a 4xx other than 401/429 is not retried and surfaces the API message', async () => {
	const credentials = credentialsWithToken();
	nock(BASE_URL)
		.post(COURSES)
		.once()
		.reply(422, { message: 'Validation failed', errors: { url: ['is invalid'] } });

	const run = await runNode({
		credentials,
		items: [{ id: 'a', name: 'A' }],
		parameters: upsertById,
	});

	expect(run.error?.message).toBe('Validation failed (HTTP 422 while upserting course "a")');
	expect((run.error as { description?: string }).description).toContain('is invalid');
});

test('an invalid item stops the run before anything is sent, naming the item and the field', async () => {
	const credentials = lmsCredentials();
	const run = await runNode({
		credentials,
		items: [
			{ id: 'a', name: 'A' },
			{ id: '', name: 'B' },
			{ id: 'c', name: 'C' },
		],
		parameters: {
			...upsertById,
			additionalFields: { durationSec: '={{ $json.id === "c" ? 1.5 : 60 }}' },
		},
	});

	expect(run.error?.message).toBe('Invalid input on item 1: External ID: is required');
	expect((run.error as { description?: string }).description).toContain(
		'Invalid input on item 2: Additional Fields → Duration (Seconds): must be a whole number of seconds',
	);
	expect(nock.pendingMocks()).toEqual([]);
});

test('enum fields reject values outside the documented options', async () => {
	const credentials = lmsCredentials();
	const run = await runNode({
		credentials,
		items: [{ id: 'a', name: 'A' }],
		parameters: {
			...upsertById,
			prices: { price: [{ amount: -1, currency: 'EUR' }] },
			additionalFields: {
				level: 'expert',
				publishedAt: '2026-02-30',
				languages: { language: [{ languageCode: 'eng' }] },
			},
		},
	});

	const message = run.error?.message ?? '';
	expect(message).toContain('Prices → Amount (price 1): must be greater than 0');
	expect(message).toMatch(/Prices → Currency \(price 1\): must be one of INR, USD/);
	expect(message).toMatch(
		/Additional Fields → Level: must be one of beginner, intermediate, advanced/,
	);
	expect(message).toContain('Additional Fields → Published At: is not a real calendar date');
	expect(message).toContain(
		'Additional Fields → Languages → Language Code (language 1): must be a two-letter language code',
	);
});

test('with Continue On Fail, bad items become error items and the others go on, in input order', async () => {
	const credentials = credentialsWithToken();
	nock(BASE_URL)
		.post(COURSES, (b) => b.external_id === 'a')
		.delay(150)
		.reply(202, accepted('tx-a'));
	nock(BASE_URL)
		.post(COURSES, (b) => b.external_id === 'c')
		.reply(422, { message: 'Name taken' });
	nock(BASE_URL)
		.post(COURSES, (b) => b.external_id === 'd')
		.reply(202, accepted('tx-d'));

	const run = await runNode({
		credentials,
		continueOnFail: true,
		items: [
			{ id: 'a', name: 'A' },
			{ id: 'b', name: '' },
			{ id: 'c', name: 'C' },
			{ id: 'd', name: 'D' },
		],
		parameters: upsertById,
	});

	expect(run.error).toBeUndefined();
	expect(run.items.map((i) => i.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 1 },
		{ item: 2 },
		{ item: 3 },
	]);
	expect(run.items[0].json.transactionId).toBe('tx-a');
	expect(run.items[1].json.error).toBe('Invalid input on item 1: Name: is required');
	expect(run.items[2].json.error).toBe('Name taken (HTTP 422 while upserting course "c")');
	expect(run.items[3].json.transactionId).toBe('tx-d');
});

test('without Continue On Fail an API failure says how far the run got', async () => {
	const credentials = credentialsWithToken({ requestsPerMinute: 60 });
	nock(BASE_URL)
		.post(COURSES, (b) => b.external_id === 'a')
		.reply(202, accepted('tx-a'));
	nock(BASE_URL)
		.post(COURSES, (b) => b.external_id === 'b')
		.reply(400, { message: 'Broken' });

	const run = await runNode({
		credentials,
		items: [
			{ id: 'a', name: 'A' },
			{ id: 'b', name: 'B' },
			{ id: 'c', name: 'C' },
		],
		parameters: upsertById,
	});

	expect(run.error?.message).toBe('Broken (HTTP 400 while upserting course "b")');
	expect((run.error as { description?: string }).description).toContain(
		'1 of 3 items had completed before this failure',
	);
});

test('every item goes through the client-side throttle and none is lost', async () => {
	// The spacing itself (60000 / requestsPerMinute) is checked on a fake clock in
	// test/unit/shared/pacing/throttle.test.ts; here: the engine path takes a slot per request.
	const credentials = credentialsWithToken({ requestsPerMinute: 600 });
	nock(BASE_URL).post(COURSES).times(6).reply(202, accepted('tx'));

	const run = await runNode({
		credentials,
		items: Array.from({ length: 6 }, (_, i) => ({ id: `t${i}`, name: 'T' })),
		parameters: upsertById,
	});

	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(6);
	expect(nock.isDone()).toBe(true);
});
