import { XApiTrigger } from '../../../../nodes/XApiTrigger/XApiTrigger.node';
import { triggerSimplifiedStatement as simplifiedStatement } from '../../../../nodes/XApi/helpers/output';

describe("the trigger's simplified output", () => {
	test('is an option, off by default, so saved workflows keep receiving the raw statement', () => {
		const options = new XApiTrigger().description.properties.find((p) => p.name === 'options');
		expect(options?.default).toEqual({});
		expect(options?.options).toEqual([
			expect.objectContaining({ name: 'simplify', type: 'boolean', default: false }),
		]);
	});

	test('flattens who, what, which course, the result and when, and keeps the statement', () => {
		const statement = {
			id: '8f87ccde-bb56-4c2e-ab83-44982ef22df0',
			actor: { name: 'Ada Lovelace', mbox: 'mailto:ada@example.com' },
			verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-GB': 'completed' } },
			object: {
				id: 'https://learn.example.com/cards/1?ecl_id=x',
				definition: { name: { 'de-DE': 'Einführung', 'en-US': 'Onboarding' } },
			},
			result: { score: { scaled: 0.92 }, success: true, completion: true, duration: 'PT1H' },
			timestamp: '2026-11-16T14:05:00Z',
			stored: '2026-11-16T14:05:01.000Z',
		};

		expect(simplifiedStatement(statement)).toEqual({
			statementId: statement.id,
			email: 'ada@example.com',
			name: 'Ada Lovelace',
			verb: 'completed',
			verbId: 'http://adlnet.gov/expapi/verbs/completed',
			course: 'Onboarding',
			activityId: 'https://learn.example.com/cards/1?ecl_id=x',
			scoreScaled: 0.92,
			success: true,
			completion: true,
			duration: 'PT1H',
			timestamp: '2026-11-16T14:05:00Z',
			stored: '2026-11-16T14:05:01.000Z',
			statement,
		});
	});

	test('a statement without a display or a name still names its verb by the IRI', () => {
		const simple = simplifiedStatement({
			verb: { id: 'http://activitystrea.ms/schema/1.0/complete' },
		});
		expect(simple.verb).toBe('complete');
		expect(simple.course).toBeUndefined();
	});
});
