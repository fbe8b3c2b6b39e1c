import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { NOT_WELL_FORMED, wellFormed } from '../../shared/form/input';
import { definedOnly } from '../../shared/form/output';
import { field, UUID } from './statementInput';
import { COMPLETED_VERB, IRI, toXapiTimestamp, VERB_OPTIONS } from './vocabulary';

const verb = field('Verb', 'verb', {
	type: 'options',
	options: VERB_OPTIONS,
	default: COMPLETED_VERB,
	description:
		'Only statements with this verb. For another verb, switch to Expression and enter its IRI.',
});

const TIME_AND_ORDER = [
	field('Ascending', 'ascending', {
		type: 'boolean',
		default: false,
		description: 'Whether to return the oldest statements first (by default the newest come first)',
	}),
	field('Since', 'since', {
		type: 'dateTime',
		description: 'Only statements stored after this time',
	}),
	field('Until', 'until', {
		type: 'dateTime',
		description: 'Only statements stored at or before this time',
	}),
];

/** Get Many's filters; the trigger's have no time and order, and a verb filter of its own. */
export function filtersCollection(triggerVerb?: INodeProperties): INodeProperties {
	const options = [
		field('Activity ID', 'activity', {
			placeholder: 'https://learn.example.com/cards/123',
			description: 'Only statements whose object is this activity (its IRI, e.g. the card URL)',
		}),
		field('Agent Email', 'agentEmail', {
			placeholder: 'name@email.com',
			description: 'Only statements about the learner with this email address (their "mbox")',
		}),
		field('Registration', 'registration', {
			description: 'Only statements with this registration UUID',
		}),
		...(triggerVerb ? [] : TIME_AND_ORDER),
		triggerVerb ?? verb,
	];
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add filter',
		default: {},
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		...(triggerVerb && { default: { verb: triggerVerb.default } }),
	};
}

const optionalText = (check: RegExp, message: string) =>
	z
		.string()
		.trim()
		.optional()
		.transform((value) => value || undefined)
		.refine(wellFormed, NOT_WELL_FORMED)
		.refine((value) => value === undefined || check.test(value), message);

/** The filters as the GET /statements query; dates without a time zone are in the workflow's. */
export function statementQuery(timezone: string) {
	const time = z.unknown().transform((value, context) => {
		if (value === undefined || value === null || value === '') return undefined;
		const message = 'must be a date and time, like 2024-05-01T09:30:00Z';
		return toXapiTimestamp(value, timezone) ?? context.addIssue({ code: 'custom', message });
	});
	const email = optionalText(
		/^(mailto:)?[^\s@]+@[^\s@]+$/i,
		'must be an email address, like learner@example.com',
	);
	return z
		.object({
			agentEmail: email.transform(
				(value) => value && JSON.stringify({ mbox: `mailto:${value.replace(/^mailto:/i, '')}` }),
			),
			verb: optionalText(IRI, 'must be a verb IRI, like http://adlnet.gov/expapi/verbs/completed'),
			activity: optionalText(
				IRI,
				'must be an activity IRI, like https://learn.example.com/cards/1',
			),
			registration: optionalText(UUID, 'must be a UUID, like 8f87ccde-bb56-4c2e-ab83-44982ef22df0'),
			since: time,
			until: time,
			ascending: z.boolean().optional(),
		})
		.strict()
		.transform(({ agentEmail, ...filters }) => definedOnly({ agent: agentEmail, ...filters }));
}
