import { formatIssues, validateStatement } from '../../../nodes/XApi/validation';
import { at, typicalStatement, typicalStatementWith, type JsonObject } from './statements';

interface ConformanceCase {
	group: string;
	name: string;
	expect: number[];
	data: unknown;
}

// Loaded at run time: a static JSON import would make the type checker infer a type for 950 statements.
// The corpus is vendored in test/fixtures (see its README there for origin and licence).
const cases = jest.requireActual<ConformanceCase[]>(
	'../../fixtures/xapi-conformance/statements.json',
);

/** "accepted", or "rejected: <every issue>" so that a failing case shows why it was rejected. */
function outcomeOf(statement: unknown): string {
	const result = validateStatement(statement);
	return result.ok ? 'accepted' : `rejected: ${formatIssues(result.issues)}`;
}

describe('the ADL LRS conformance corpus (xAPI 1.0.3)', () => {
	it('holds 343 statements to accept and 607 to reject', () => {
		const statuses = cases.map((conformanceCase) => conformanceCase.expect[0]);
		expect(statuses.filter((status) => status === 200)).toHaveLength(343);
		expect(statuses.filter((status) => status === 400)).toHaveLength(607);
	});

	const numbered = cases.map(({ group, name, expect: [status], data }, index) => ({
		index,
		status,
		group,
		name,
		data,
	}));

	test.each(numbered)('#$index [$status] $group › $name', ({ status, data }) => {
		const outcome = outcomeOf(data);
		if (status === 200) expect(outcome).toBe('accepted');
		else expect(outcome).toMatch(/^rejected: /);
	});
});

type Change = (statement: JsonObject) => void;

/** Rules of the specification that the corpus does not exercise: statements to accept. */
const acceptedBeyondCorpus: Array<[string, Change]> = [
	[
		'the simplest statement of xAPI-Data 2.4.s2',
		(s) => {
			for (const key of Object.keys(s)) delete s[key];
			Object.assign(s, {
				id: '12345678-1234-5678-9234-567812345678',
				actor: { mbox: 'mailto:xapi@adlnet.gov' },
				verb: { id: 'http://adlnet.gov/expapi/verbs/created', display: { 'en-US': 'created' } },
				object: { id: 'http://example.adlnet.gov/xapi/example/activity' },
			});
		},
	],
	['a timestamp with a negative offset', (s) => (s.timestamp = '2024-05-01T07:30:00.000-05:00')],
	['a timestamp on a leap day', (s) => (s.timestamp = '2024-02-29T10:00:00Z')],
	['a timestamp in the ISO 8601 basic format', (s) => (s.timestamp = '20240501T123000Z')],
	['a timestamp without a time zone', (s) => (s.timestamp = '2024-05-01T12:30:00')],
	['a fraction on the smallest unit of a duration', (s) => (at(s, 'result').duration = 'P1DT1.5H')],
	[
		'private-use, grandfathered and UN region language tags',
		(s) => {
			at(s, 'verb').display = {
				'x-klingon': 'a',
				'i-klingon': 'b',
				'es-419': 'c',
				'de-CH-1901': 'd',
			};
		},
	],
	['an upper-case UUID', (s) => (s.id = '6690E6C9-3EF0-4ED3-8B37-7F3964730BEE')],
	['version 1.0.0', (s) => (s.version = '1.0.0')],
	[
		'a choice interaction with its choices',
		(s) => {
			Object.assign(at(s, 'object', 'definition'), {
				interactionType: 'choice',
				correctResponsesPattern: ['golf[,]tetris'],
				choices: [{ id: 'golf', description: { 'en-US': 'Golf' } }, { id: 'tetris' }],
			});
		},
	],
	[
		'a signature attachment sent as application/octet-stream',
		(s) => {
			s.attachments = [
				{
					usageType: 'http://adlnet.gov/expapi/attachments/signature',
					display: { 'en-US': 'Signature' },
					contentType: 'application/octet-stream',
					length: 4235,
					sha2: '672fa5fa658017f1b72d65036f13379c6ab05d4ab3b6664908d8acf0b6a0c634',
				},
			];
		},
	],
	[
		'an identified Group as instructor',
		(s) => {
			at(s, 'context').instructor = {
				objectType: 'Group',
				openid: 'https://openid.example.com/coaches',
			};
		},
	],
];

/** Rules of the specification that the corpus does not exercise: statements to reject, and where. */
const rejectedBeyondCorpus: Array<[string, Change, string]> = [
	[
		'a timestamp on 29 February of a common year',
		(s) => (s.timestamp = '2023-02-29T10:00:00Z'),
		'timestamp',
	],
	['a timestamp without a time', (s) => (s.timestamp = '2024-05-01'), 'timestamp'],
	['an hour 24', (s) => (s.timestamp = '2024-05-01T24:00:00Z'), 'timestamp'],
	[
		'a basic offset in an extended timestamp',
		(s) => (s.timestamp = '2024-05-01T12:30:00+0100'),
		'timestamp',
	],
	['a stored time with offset -00:00', (s) => (s.stored = '2024-05-01T12:30:00-00:00'), 'stored'],
	['an empty duration', (s) => (at(s, 'result').duration = 'P'), 'result.duration'],
	['a duration ending in T', (s) => (at(s, 'result').duration = 'P1DT'), 'result.duration'],
	[
		'a fraction before the smallest unit',
		(s) => (at(s, 'result').duration = 'PT1.5H30M'),
		'result.duration',
	],
	['a negative duration', (s) => (at(s, 'result').duration = '-PT1H'), 'result.duration'],
	['a version with a leading zero', (s) => (s.version = '1.0.01'), 'version'],
	['a UUID of another variant', (s) => (s.id = '6690e6c9-3ef0-4ed3-0b37-7f3964730bee'), 'id'],
	['a property xAPI does not define', (s) => (s.comment = 'nice'), 'comment'],
	[
		'an IRI with a space',
		(s) => (at(s, 'object').id = 'https://lms.example.com/my course'),
		'object.id',
	],
	[
		'an IRI with a broken percent escape',
		(s) => (at(s, 'object').id = 'https://lms.example.com/%zz'),
		'object.id',
	],
	['an mbox without "mailto:"', (s) => (at(s, 'actor').mbox = 'ada@example.com'), 'actor.mbox'],
	[
		'an mbox with a query',
		(s) => (at(s, 'actor').mbox = 'mailto:ada@example.com?subject=hi'),
		'actor.mbox',
	],
	[
		'an openid with non-ASCII characters',
		(s) => {
			delete at(s, 'actor').mbox;
			at(s, 'actor').openid = 'https://exämple.com/ada';
		},
		'actor.openid',
	],
	[
		'an mbox_sha1sum of 39 characters',
		(s) => {
			delete at(s, 'actor').mbox;
			at(s, 'actor').mbox_sha1sum = 'cd9b00a5611f94eaa7b1661edab976068e36497';
		},
		'actor.mbox_sha1sum',
	],
	[
		'an account home page that is not a locator',
		(s) => {
			at(s, 'context', 'instructor', 'account').homePage = 'urn:example:lms';
		},
		'context.instructor.account.homePage',
	],
	[
		'a Group as member of a Group',
		(s) => {
			s.actor = {
				objectType: 'Group',
				member: [{ objectType: 'Group', member: [{ mbox: 'mailto:a@example.com' }] }],
			};
		},
		'actor.member[0].objectType',
	],
	[
		'an anonymous Group without members',
		(s) => (s.actor = { objectType: 'Group', member: [] }),
		'actor.member',
	],
	[
		'an Agent as team',
		(s) => (at(s, 'context').team = { mbox: 'mailto:team@example.com' }),
		'context.team',
	],
	[
		'an Agent as object without objectType',
		(s) => (s.object = { mbox: 'mailto:bob@example.com' }),
		'object.objectType',
	],
	[
		'an Agent among the context activities',
		(s) => {
			at(s, 'context', 'contextActivities').parent = [
				{ objectType: 'Agent', mbox: 'mailto:bob@example.com' },
			];
		},
		'context.contextActivities.parent[0].objectType',
	],
	[
		'a context statement without objectType',
		(s) => {
			at(s, 'context').statement = { id: '6690e6c9-3ef0-4ed3-8b37-7f3964730bee' };
		},
		'context.statement.objectType',
	],
	[
		'a display text that is a number',
		(s) => (at(s, 'verb').display = { 'en-US': 1 }),
		'verb.display["en-US"]',
	],
	[
		'a language tag repeating a singleton',
		(s) => {
			at(s, 'verb').display = { 'zh-z-aaa-z-bbb': 'x' };
		},
		'verb.display["zh-z-aaa-z-bbb"]',
	],
	[
		'a language tag repeating a variant',
		(s) => {
			at(s, 'verb').display = { 'de-1901-1901': 'x' };
		},
		'verb.display["de-1901-1901"]',
	],
	['extensions set to null', (s) => (at(s, 'result').extensions = null), 'result.extensions'],
	[
		'choices on a true-false interaction',
		(s) => {
			Object.assign(at(s, 'object', 'definition'), {
				interactionType: 'true-false',
				choices: [{ id: 'true' }],
			});
		},
		'object.definition.choices',
	],
	[
		'two choices with the same id',
		(s) => {
			Object.assign(at(s, 'object', 'definition'), {
				interactionType: 'choice',
				choices: [{ id: 'a' }, { id: 'a' }],
			});
		},
		'object.definition.choices[1].id',
	],
	[
		'a correct responses pattern without interactionType',
		(s) => {
			at(s, 'object', 'definition').correctResponsesPattern = ['true'];
		},
		'object.definition.correctResponsesPattern',
	],
	[
		'an unknown property in an interaction component',
		(s) => {
			Object.assign(at(s, 'object', 'definition'), {
				interactionType: 'likert',
				scale: [{ id: 'ok', text: 'OK' }],
			});
		},
		'object.definition.scale[0].text',
	],
	[
		'an attachment length with a fraction',
		(s) => {
			s.attachments = [
				{
					usageType: 'http://example.com/usage/essay',
					display: { en: 'Essay' },
					contentType: 'text/plain',
					length: 1.5,
					sha2: '672fa5fa658017f1b72d65036f13379c6ab05d4ab3b6664908d8acf0b6a0c634',
				},
			];
		},
		'attachments[0].length',
	],
	[
		'an attachment hash that is not SHA-2',
		(s) => {
			s.attachments = [
				{
					usageType: 'http://example.com/usage/essay',
					display: { en: 'Essay' },
					contentType: 'text/plain',
					length: 15,
					sha2: 'abc',
				},
			];
		},
		'attachments[0].sha2',
	],
	[
		'an attachment without display',
		(s) => {
			s.attachments = [
				{
					usageType: 'http://example.com/usage/essay',
					contentType: 'text/plain',
					length: 15,
					sha2: '672fa5fa658017f1b72d65036f13379c6ab05d4ab3b6664908d8acf0b6a0c634',
				},
			];
		},
		'attachments[0].display',
	],
	[
		'a signature that is not application/octet-stream',
		(s) => {
			s.attachments = [
				{
					usageType: 'http://adlnet.gov/expapi/attachments/signature',
					display: { en: 'Signature' },
					contentType: 'text/plain',
					length: 15,
					sha2: '672fa5fa658017f1b72d65036f13379c6ab05d4ab3b6664908d8acf0b6a0c634',
				},
			];
		},
		'attachments[0].contentType',
	],
];

describe("the duration forms of the platform's xAPI document (section 2, result)", () => {
	// The document lists five valid forms, "P16559.14S" without a "T" as it writes it, and
	// "P4W1D" as invalid: weeks cannot be combined with other periods.
	test.each(['PT4H35M59.14S', 'P16559.14S', 'P3Y1M29DT4H35M59.14S', 'P3Y', 'P4W'])(
		'accepts %s',
		(duration) => {
			expect(outcomeOf(typicalStatementWith((s) => (at(s, 'result').duration = duration)))).toBe(
				'accepted',
			);
		},
	);

	test('rejects P4W1D at result.duration, naming the weeks rule', () => {
		const result = validateStatement(
			typicalStatementWith((s) => (at(s, 'result').duration = 'P4W1D')),
		);
		expect(result.ok ? [] : formatIssues(result.issues)).toBe(
			'result.duration: "P4W1D" is not an ISO 8601 duration (weeks cannot be combined with other units)',
		);
	});

	test.each(['P16559S', 'P0.5S', 'PT16559.14S'])(
		'accepts seconds alone, with or without the "T": %s',
		(duration) => {
			expect(outcomeOf(typicalStatementWith((s) => (at(s, 'result').duration = duration)))).toBe(
				'accepted',
			);
		},
	);

	test.each(['P5H', 'P1Y5S', 'P16559.14', 'PS', 'P4W2W'])(
		'still rejects other units without "T", and malformed forms: %s',
		(duration) => {
			const result = validateStatement(
				typicalStatementWith((s) => (at(s, 'result').duration = duration)),
			);
			expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toContain(
				'result.duration',
			);
		},
	);
});

describe('rules beyond the corpus', () => {
	test.each(acceptedBeyondCorpus)('accepts %s', (_description, change) => {
		expect(outcomeOf(typicalStatementWith(change))).toBe('accepted');
	});

	const rejections = rejectedBeyondCorpus.map(([description, change, path]) => ({
		description,
		change,
		path,
	}));

	test.each(rejections)('rejects $description at $path', ({ change, path }) => {
		const result = validateStatement(typicalStatementWith(change));
		expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toContain(path);
	});

	it('rejects a list and values that are not objects, at the statement itself', () => {
		for (const notAStatement of [[typicalStatement()], null, 'statement', 42]) {
			const result = validateStatement(notAStatement);
			expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual(['statement']);
		}
	});

	it('returns an accepted statement unchanged', () => {
		const statement = typicalStatement();
		const result = validateStatement(statement);
		expect(result).toEqual({ ok: true, statement });
	});
});
