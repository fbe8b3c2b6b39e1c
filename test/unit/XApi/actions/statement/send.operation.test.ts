import nock from 'nock';

import {
	COMPLETED,
	LRS_ORIGIN,
	STATEMENTS_PATH,
	UUID_V4,
	recordPosts,
	resetNock,
	runXApi,
	sendJson,
	statement,
} from '../../fixtures';

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const fullForm = {
	resource: 'statement',
	operation: 'send',
	inputMode: 'fields',
	actorName: 'Ada Lovelace',
	actorEmail: 'ada@example.com',
	verb: 'http://id.tincanapi.com/verb/voted-up',
	activityId: 'https://learn.test/cards/42?ref=feed#top',
	activityType: 'http://activitystrea.ms/schema/1.0/video',
	activityName: 'Intro video',
	additionalFields: {
		language: 'fr-FR',
		activityDescription: 'A short film',
		eclId: 'ECL 7',
		scoreScaled: 0.85,
		success: true,
		completion: false,
		duration: 'PT1M30S',
		registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
		categories: {
			category: [
				{ id: 'https://learn.test/skills/ai', name: 'AI', description: 'Artificial intelligence' },
				{ id: 'https://learn.test/profiles/basic', name: '', description: '' },
			],
		},
		instructorName: 'Grace Hopper',
		instructorHomePage: 'https://lms.test',
		instructorAccountName: 'grace',
		timestamp: '2024-05-01T09:30:00.000Z',
		statementId: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
	},
};

test('the form builds the platform-shaped statement, exactly, and posts it as one JSON object', async () => {
	const { raw } = recordPosts();

	const run = await runXApi(fullForm);

	expect(run.error).toBeUndefined();
	// One POST whose body is the statement itself, as the platform's documents show it.
	expect(raw).toEqual([
		{
			id: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
			actor: { name: 'Ada Lovelace', mbox: 'mailto:ada@example.com' },
			verb: { id: 'http://id.tincanapi.com/verb/voted-up', display: { 'fr-FR': 'up voted' } },
			object: {
				objectType: 'Activity',
				id: 'https://learn.test/cards/42?ref=feed&ecl_id=ECL%207#top',
				definition: {
					type: 'http://activitystrea.ms/schema/1.0/video',
					name: { 'fr-FR': 'Intro video' },
					description: { 'fr-FR': 'A short film' },
				},
			},
			result: { score: { scaled: 0.85 }, success: true, completion: false, duration: 'PT1M30S' },
			context: {
				registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
				contextActivities: {
					category: [
						{
							objectType: 'Activity',
							id: 'https://learn.test/skills/ai',
							definition: {
								name: { 'fr-FR': 'AI' },
								description: { 'fr-FR': 'Artificial intelligence' },
							},
						},
						{ objectType: 'Activity', id: 'https://learn.test/profiles/basic' },
					],
				},
				instructor: {
					name: 'Grace Hopper',
					account: { homePage: 'https://lms.test', name: 'grace' },
				},
			},
			timestamp: '2024-05-01T09:30:00.000Z',
		},
	]);
	expect(run.items).toHaveLength(1);
	expect(run.items[0].pairedItem).toEqual({ item: 0 });
	expect(run.items[0].json.statementId).toBe('0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b');
	expect(run.items[0].json.statement).toEqual(raw[0]);
});

test('a minimal form leaves out every empty part and uses en-US', async () => {
	const { bodies } = recordPosts();

	const run = await runXApi({
		resource: 'statement',
		operation: 'send',
		inputMode: 'fields',
		actorName: 'Ada',
		actorEmail: 'mailto:ada@example.com',
		verb: 'custom',
		customVerbId: 'https://w3id.org/xapi/dod-isd/verbs/answered',
		activityId: 'https://learn.test/cards/1',
		activityType: 'custom',
		customActivityType: 'http://adlnet.gov/expapi/activities/assessment',
		activityName: 'Quiz',
	});

	expect(run.error).toBeUndefined();
	const { id, ...rest } = bodies[0][0];
	expect(id).toMatch(UUID_V4);
	expect(rest).toEqual({
		actor: { name: 'Ada', mbox: 'mailto:ada@example.com' },
		verb: { id: 'https://w3id.org/xapi/dod-isd/verbs/answered', display: { 'en-US': 'answered' } },
		object: {
			objectType: 'Activity',
			id: 'https://learn.test/cards/1',
			definition: {
				type: 'http://adlnet.gov/expapi/activities/assessment',
				name: { 'en-US': 'Quiz' },
			},
		},
	});
});

test('a timestamp without an offset is read in the workflow time zone and sent in UTC', async () => {
	const { bodies } = recordPosts();
	const form = {
		...fullForm,
		additionalFields: {
			timestamp: '2024-05-01T09:30:00',
			statementId: fullForm.additionalFields.statementId,
		},
	};

	const run = await runXApi(form);

	expect(run.error).toBeUndefined();
	// The harness workflow has no time zone setting, so n8n's default (America/New_York, UTC-4 in May) applies.
	expect(bodies[0][0].timestamp).toBe('2024-05-01T13:30:00.000Z');
});

test('json mode takes an object and a string holding JSON, and keeps a given id', async () => {
	const { bodies } = recordPosts();
	const given = {
		id: '6690e6c9-3ef0-4ed3-8b37-7f3964730bee',
		...statement('https://learn.test/a'),
	};

	const run = await sendJson([
		{ statement: given },
		{ statement: JSON.stringify(statement('https://learn.test/b')) },
	]);

	expect(run.error).toBeUndefined();
	expect(bodies).toHaveLength(1);
	expect(bodies[0][0]).toEqual(given);
	expect(bodies[0][1]).toEqual({
		id: expect.stringMatching(UUID_V4),
		...statement('https://learn.test/b'),
	});
	expect(run.items.map((item) => item.json.statementId)).toEqual([given.id, bodies[0][1].id]);
	expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
});

test('every statement gets its own v4 id before the first request', async () => {
	const { bodies } = recordPosts();

	const run = await sendJson([
		{ statement: statement() },
		{ statement: statement() },
		{ statement: statement() },
	]);

	expect(run.error).toBeUndefined();
	const ids = bodies[0].map((s) => s.id as string);
	ids.forEach((id) => expect(id).toMatch(UUID_V4));
	expect(new Set(ids).size).toBe(3);
	expect(run.items.map((item) => item.json.statementId)).toEqual(ids);
});

test('an invalid statement stops the run before anything is sent, naming the item and the property', async () => {
	const post = nock(LRS_ORIGIN).post(STATEMENTS_PATH).reply(200, []);
	const bad = { ...statement(), result: { duration: 'P4W1D' } };

	const run = await sendJson([{ statement: statement() }, { statement: bad }]);

	expect(post.isDone()).toBe(false);
	expect(run.error?.message).toMatch(/^Invalid statement on item 1: result\.duration: /);
});

test('invalid JSON text and a missing form field name the item', async () => {
	const post = nock(LRS_ORIGIN).post(STATEMENTS_PATH).reply(200, []);

	const json = await sendJson([{ statement: '{"actor": ' }]);
	// An expression that yields nothing gets past n8n's own required check, as in real workflows.
	const form = await runXApi(
		{ ...fullForm, activityName: '={{ $json.name }}', additionalFields: {} },
		[{}, {}],
	);

	expect(post.isDone()).toBe(false);
	expect(json.error?.message).toMatch(/^The statement of item 0 is not valid JSON/);
	expect(form.error?.message).toBe('Invalid input on item 0: Activity Name: is required');
	expect(form.error?.description).toMatch(/2 items are invalid; nothing was sent/);
});

test('with Continue On Fail an invalid item becomes an error item and the others are sent', async () => {
	const { bodies } = recordPosts();

	const run = await sendJson(
		[{ statement: statement() }, { statement: { ...statement(), verb: { id: 'completed' } } }],
		{ continueOnFail: true },
	);

	expect(run.error).toBeUndefined();
	expect(bodies).toHaveLength(1);
	expect(bodies[0]).toHaveLength(1);
	expect(run.items[0].json.statementId).toBe(bodies[0][0].id);
	expect(run.items[1].json.error).toMatch(/^Invalid statement on item 1: verb\.id: /);
	expect(run.items[1].pairedItem).toEqual({ item: 1 });
	expect((bodies[0][0].verb as { id: string }).id).toBe(COMPLETED);
});

test.each(['PT4H35M59.14S', 'P16559.14S', 'P3Y1M29DT4H35M59.14S', 'P3Y', 'P4W'])(
	"the document's duration form %s is sent as given",
	async (duration) => {
		const { raw } = recordPosts();

		const run = await runXApi({
			...fullForm,
			additionalFields: { duration, statementId: fullForm.additionalFields.statementId },
		});

		expect(run.error).toBeUndefined();
		expect((raw[0] as { result: unknown }).result).toEqual({ duration });
	},
);

test('the duration P4W1D is refused before anything is sent', async () => {
	const post = nock(LRS_ORIGIN).post(STATEMENTS_PATH).reply(200, []);

	const run = await runXApi({ ...fullForm, additionalFields: { duration: 'P4W1D' } });

	expect(post.isDone()).toBe(false);
	expect(run.error?.message).toBe(
		'Invalid statement on item 0: Additional Fields → Duration: "P4W1D" is not an ISO 8601 duration (weeks cannot be combined with other units)',
	);
});
