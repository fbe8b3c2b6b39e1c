import {
	formatIssues,
	formatPath,
	validateStatement,
	type ValidationIssue,
} from '../../../../nodes/XApi/validation';
import { at, typicalStatementWith, type JsonObject } from '../statements';

function issuesOf(change: (statement: JsonObject) => void): ValidationIssue[] {
	const result = validateStatement(typicalStatementWith(change));
	if (result.ok) throw new Error('expected the statement to be rejected');
	return result.issues;
}

describe('validation messages a user can act on', () => {
	it('explains the weeks rule of durations in one line', () => {
		const issues = issuesOf((s) => (at(s, 'result').duration = 'P4W1D'));
		expect(formatIssues(issues)).toBe(
			'result.duration: "P4W1D" is not an ISO 8601 duration (weeks cannot be combined with other units)',
		);
	});

	it('names the list position of a bad context activity', () => {
		const issues = issuesOf((s) => {
			at(s, 'context', 'contextActivities').parent = [
				{ id: 'https://lms.example.com/paths/1' },
				{ id: 'not an iri' },
			];
		});
		expect(issues).toEqual([
			{
				path: 'context.contextActivities.parent[1].id',
				message: expect.stringContaining('"not an iri" is not an IRI'),
			},
		]);
	});

	it('names the interaction component whose id is used twice', () => {
		const issues = issuesOf((s) => {
			Object.assign(at(s, 'object', 'definition'), {
				interactionType: 'choice',
				choices: [{ id: 'red' }, { id: 'red' }],
			});
		});
		expect(issues).toEqual([
			{
				path: 'object.definition.choices[1].id',
				message: expect.stringMatching(/"red" is used twice.*distinct/),
			},
		]);
	});

	it('suggests the "mailto:" prefix for a bare email address', () => {
		const issues = issuesOf((s) => (at(s, 'actor').mbox = 'ada@example.com'));
		expect(issues).toEqual([
			{ path: 'actor.mbox', message: expect.stringContaining('write "mailto:ada@example.com"') },
		]);
	});

	it('says which identifiers an Agent uses too many of', () => {
		const issues = issuesOf((s) => (at(s, 'actor').openid = 'https://openid.example.com/ada'));
		expect(issues).toEqual([
			{
				path: 'actor',
				message: expect.stringMatching(/exactly one identifier.*"mbox" and "openid"/),
			},
		]);
	});

	it('tells that numbers and booleans must not be quoted', () => {
		const issues = issuesOf((s) => {
			at(s, 'result', 'score').raw = '87';
			at(s, 'result').success = 'true';
		});
		expect(issues).toEqual([
			{
				path: 'result.score.raw',
				message: expect.stringMatching(/must be a number.*"87".*without quotes/),
			},
			{
				path: 'result.success',
				message: expect.stringMatching(/must be true or false.*without quotes/),
			},
		]);
	});

	it('points out a property name in the wrong letter case', () => {
		const issues = issuesOf((s) => {
			s.Timestamp = s.timestamp;
			delete s.timestamp;
		});
		expect(issues).toEqual([
			{ path: 'Timestamp', message: expect.stringContaining('did you mean "timestamp"?') },
		]);
	});

	it('points out an enumerated value in the wrong letter case', () => {
		const issues = issuesOf((s) => (at(s, 'object').objectType = 'activity'));
		expect(issues).toEqual([
			{ path: 'object.objectType', message: expect.stringContaining('write "Activity"') },
		]);
	});

	it('explains why a minus-zero time zone is refused', () => {
		const issues = issuesOf((s) => (s.timestamp = '2024-05-01T12:30:00.000-00:00'));
		expect(issues).toEqual([
			{ path: 'timestamp', message: expect.stringMatching(/minus zero.*"Z"/) },
		]);
	});

	it('says what is missing and where', () => {
		const issues = issuesOf((s) => delete at(s, 'verb').id);
		expect(issues).toEqual([
			{
				path: 'verb.id',
				message: expect.stringMatching(/^is required but missing; expected an IRI/),
			},
		]);
	});

	it('refuses null and says what to do instead', () => {
		const issues = issuesOf((s) => (at(s, 'context').registration = null));
		expect(issues).toEqual([
			{ path: 'context.registration', message: expect.stringMatching(/must not be null: remove/) },
		]);
	});

	it('explains the scaled score range and the raw score bounds', () => {
		const issues = issuesOf((s) => {
			at(s, 'result', 'score').scaled = 1.5;
			at(s, 'result', 'score').raw = 120;
		});
		expect(issues.map((issue) => issue.path).sort()).toEqual([
			'result.score.raw',
			'result.score.scaled',
		]);
		expect(formatIssues(issues)).toContain('120 is above "max" (100)');
		expect(formatIssues(issues)).toContain('between -1 and 1');
	});

	it('reports every problem of a statement at once, and shortens long lists', () => {
		const issues = issuesOf((s) => {
			for (let index = 0; index < 12; index++) at(s, 'verb', 'display')[`not a tag ${index}`] = 'x';
		});
		expect(issues).toHaveLength(12);
		expect(formatIssues(issues)).toMatch(/; and 2 more problems$/);
	});
});

describe('formatPath', () => {
	it('writes property paths as a person reads them', () => {
		expect(formatPath(['context', 'contextActivities', 'parent', 0, 'id'])).toBe(
			'context.contextActivities.parent[0].id',
		);
		expect(formatPath(['verb', 'display', 'en-US'])).toBe('verb.display["en-US"]');
		expect(formatPath(['result', 'extensions', 'http://example.com/x'])).toBe(
			'result.extensions["http://example.com/x"]',
		);
		expect(formatPath([])).toBe('statement');
	});
});
