import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { NOT_WELL_FORMED, wellFormed } from '../../shared/form/input';
import { UUID } from './statementInput';
import { COMPLETED_VERB, IRI, toXapiTimestamp, VERB_OPTIONS } from './vocabulary';

const agentEmail: INodeProperties = {
	displayName: 'Agent Email',
	name: 'agentEmail',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
	description: 'Only statements about the learner with this email address (their "mbox")',
};

const verb: INodeProperties = {
	displayName: 'Verb',
	name: 'verb',
	type: 'options',
	options: VERB_OPTIONS,
	default: COMPLETED_VERB,
	description:
		'Only statements with this verb. For another verb, switch to Expression and enter its IRI.',
};

const activity: INodeProperties = {
	displayName: 'Activity ID',
	name: 'activity',
	type: 'string',
	default: '',
	placeholder: 'https://learn.example.com/cards/123',
	description: 'Only statements whose object is this activity (its IRI, e.g. the card URL)',
};

const registration: INodeProperties = {
	displayName: 'Registration',
	name: 'registration',
	type: 'string',
	default: '',
	description: 'Only statements with this registration UUID',
};

/** Shared by Get Many and the trigger; the trigger brings its own verb filter (several verbs). */
export function filterProperties({
	withTimeAndOrder,
	verbFilter = verb,
}: {
	withTimeAndOrder: boolean;
	verbFilter?: INodeProperties;
}): INodeProperties[] {
	if (!withTimeAndOrder) return [activity, agentEmail, registration, verbFilter];
	return [
		activity,
		agentEmail,
		{
			displayName: 'Ascending',
			name: 'ascending',
			type: 'boolean',
			default: false,
			description:
				'Whether to return the oldest statements first (by default the newest come first)',
		},
		registration,
		{
			displayName: 'Since',
			name: 'since',
			type: 'dateTime',
			default: '',
			description: 'Only statements stored after this time',
		},
		{
			displayName: 'Until',
			name: 'until',
			type: 'dateTime',
			default: '',
			description: 'Only statements stored at or before this time',
		},
		verbFilter,
	];
}

const optionalText = (check: RegExp, message: string) =>
	z
		.string()
		.trim()
		.optional()
		.transform((value) => value || undefined)
		.refine(wellFormed, NOT_WELL_FORMED)
		.refine((value) => value === undefined || check.test(value), message);

export const filtersSchema = z
	.object({
		agentEmail: optionalText(
			/^(mailto:)?[^\s@]+@[^\s@]+$/i,
			'must be an email address, like learner@example.com',
		).transform((value) => value?.replace(/^mailto:/i, '')),
		verb: optionalText(IRI, 'must be a verb IRI, like http://adlnet.gov/expapi/verbs/completed'),
		activity: optionalText(IRI, 'must be an activity IRI, like https://learn.example.com/cards/1'),
		registration: optionalText(UUID, 'must be a UUID, like 8f87ccde-bb56-4c2e-ab83-44982ef22df0'),
		since: z.unknown().optional(),
		until: z.unknown().optional(),
		ascending: z.boolean().optional(),
	})
	.strict();

/** The GET /statements query for the filters; dates are read in the workflow's time zone. */
export function statementQuery(
	filters: z.infer<typeof filtersSchema>,
	timezone: string,
): { qs: IDataObject } | { problem: string } {
	const qs: IDataObject = {};
	if (filters.agentEmail) qs.agent = JSON.stringify({ mbox: `mailto:${filters.agentEmail}` });
	if (filters.verb) qs.verb = filters.verb;
	if (filters.activity) qs.activity = filters.activity;
	if (filters.registration) qs.registration = filters.registration;
	for (const key of ['since', 'until'] as const) {
		const value = filters[key];
		if (value === undefined || value === null || value === '') continue;
		const timestamp = toXapiTimestamp(value, timezone);
		if (!timestamp)
			return { problem: `filters.${key}: must be a date and time, like 2024-05-01T09:30:00Z` };
		qs[key] = timestamp;
	}
	if (filters.ascending !== undefined) qs.ascending = filters.ascending;
	return { qs };
}
