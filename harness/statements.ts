import { randomUUID } from 'node:crypto';

const VERBS = [
	['http://adlnet.gov/expapi/verbs/completed', 'completed'],
	['http://adlnet.gov/expapi/verbs/attempted', 'attempted'],
	['http://adlnet.gov/expapi/verbs/passed', 'passed'],
	['http://adlnet.gov/expapi/verbs/experienced', 'experienced'],
] as const;

/** The activity id that makes statement `index` of a run recognisable in the store. */
export function activityIdOf(runTag: string, index: number): string {
	return `https://learn.example.com/${runTag}/activities/${index}`;
}

/**
 * A realistic xAPI 1.0.3 statement (actor, verb, activity with definition, and for some a result
 * and a context), varied by `index` so that validation does not see one shape only.
 */
export function makeStatement(
	runTag: string,
	index: number,
	options: { withId?: boolean } = {},
): Record<string, unknown> {
	const [verbId, verbName] = VERBS[index % VERBS.length];
	const statement: Record<string, unknown> = {
		actor: {
			objectType: 'Agent',
			name: `Learner ${index % 997}`,
			mbox: `mailto:learner${index % 997}@example.com`,
		},
		verb: { id: verbId, display: { 'en-US': verbName } },
		object: {
			objectType: 'Activity',
			id: activityIdOf(runTag, index),
			definition: {
				name: { 'en-US': `Lesson ${index}` },
				description: { 'en-US': `Lesson ${index} of the ${runTag} programme` },
				type: 'http://adlnet.gov/expapi/activities/lesson',
			},
		},
		timestamp: new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString(),
	};
	if (index % 2 === 0) {
		statement.result = {
			score: { scaled: (index % 100) / 100 },
			success: index % 3 !== 0,
			completion: true,
			duration: `PT${(index % 50) + 1}M${index % 60}S`,
		};
	}
	if (index % 3 === 0) {
		statement.context = {
			registration: randomUUID(),
			platform: 'Benchmark',
			language: 'en-US',
			contextActivities: {
				parent: [{ id: `https://learn.example.com/${runTag}/courses/${index % 20}` }],
			},
		};
	}
	if (options.withId) statement.id = randomUUID();
	return statement;
}
