/** Statements for the validator tests: a typical valid statement and a way to derive variants. */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** An actor, a verb, an Activity with a definition, a result and a context, as the node sends them. */
export function typicalStatement(): JsonObject {
	return {
		id: '6690e6c9-3ef0-4ed3-8b37-7f3964730bee',
		actor: { objectType: 'Agent', name: 'Ada Learner', mbox: 'mailto:ada@example.com' },
		verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
		object: {
			objectType: 'Activity',
			id: 'https://lms.example.com/courses/safety-101?ecl_id=42',
			definition: {
				type: 'http://adlnet.gov/expapi/activities/course',
				name: { 'en-US': 'Safety at work' },
				description: { 'en-US': 'A short course about safety at work.' },
			},
		},
		result: {
			score: { scaled: 0.87, raw: 87, min: 0, max: 100 },
			success: true,
			completion: true,
			duration: 'PT1H12M30S',
		},
		context: {
			registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
			instructor: {
				name: 'Coach',
				account: { homePage: 'https://lms.example.com', name: 'coach-1' },
			},
			contextActivities: {
				category: [
					{
						id: 'https://lms.example.com/categories/safety',
						definition: { name: { 'en-US': 'Safety' } },
					},
				],
			},
			language: 'en-US',
		},
		timestamp: '2024-05-01T12:30:00.000Z',
	};
}

/** A copy of the typical statement changed by `change`. */
export function typicalStatementWith(change: (statement: JsonObject) => void): JsonObject {
	const statement = typicalStatement();
	change(statement);
	return statement;
}

/** Shorthand for reaching into nested test data without type noise. */
export function at(statement: JsonObject, ...path: string[]): JsonObject {
	let value: Json = statement;
	for (const key of path) value = (value as JsonObject)[key];
	return value as JsonObject;
}
