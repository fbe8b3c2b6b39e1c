import type { INodeProperties } from 'n8n-workflow';

import { additionalFields } from '../../../shared/items/operation';
import {
	ACTIVITY_TYPE_OPTIONS,
	COMPLETED_VERB,
	COURSE_ACTIVITY_TYPE,
	CUSTOM,
	VERB_OPTIONS_WITH_CUSTOM,
} from '../../helpers/vocabulary';

const inFieldsMode = { inputMode: ['fields'] };

/** The statement id derives from it (UUID v5), so an event sent again is stored once. */
export const IDEMPOTENCY_KEY_FIELD: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.completionId }}',
	description:
		"Text that names the event, e.g. the completion's ID in the sending system. The statement ID is derived from it, the same in every run, so an event sent again (a webhook delivered twice, a re-run execution) is stored once. Not together with Statement ID.",
};

export const statementFormFields: INodeProperties[] = [
	{
		displayName: 'Actor Name',
		name: 'actorName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Ada Lovelace',
		description: "The learner's full name",
		displayOptions: { show: inFieldsMode },
	},
	{
		displayName: 'Actor Email',
		name: 'actorEmail',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'name@email.com',
		description: 'Identifies the learner; sent as "mbox: mailto:…"',
		displayOptions: { show: inFieldsMode },
	},
	{
		displayName: 'Verb',
		name: 'verb',
		type: 'options',
		options: VERB_OPTIONS_WITH_CUSTOM,
		default: COMPLETED_VERB,
		description: 'What the learner did',
		displayOptions: { show: inFieldsMode },
	},
	{
		displayName: 'Custom Verb ID',
		name: 'customVerbId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'http://adlnet.gov/expapi/verbs/attempted',
		description:
			'The verb\'s IRI. Its last path segment becomes the verb\'s display word ("attempted").',
		displayOptions: { show: { ...inFieldsMode, verb: [CUSTOM] } },
	},
	{
		displayName: 'Activity ID',
		name: 'activityId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://learn.example.com/cards/123',
		description: 'The IRI of what the learner acted on, usually the card URL',
		displayOptions: { show: inFieldsMode },
	},
	{
		displayName: 'Activity Type',
		name: 'activityType',
		type: 'options',
		options: ACTIVITY_TYPE_OPTIONS,
		default: COURSE_ACTIVITY_TYPE,
		displayOptions: { show: inFieldsMode },
	},
	{
		displayName: 'Custom Activity Type',
		name: 'customActivityType',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'http://adlnet.gov/expapi/activities/assessment',
		description: "The activity type's IRI",
		displayOptions: { show: { ...inFieldsMode, activityType: [CUSTOM] } },
	},
	{
		displayName: 'Activity Name',
		name: 'activityName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Onboarding course',
		displayOptions: { show: inFieldsMode },
	},
	additionalFields(
		[
			{
				displayName: 'Activity Description',
				name: 'activityDescription',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
			},
			{
				displayName: 'Categories',
				name: 'categories',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add category',
				description: 'Sent as the context\'s "category" activities (e.g. a profile or a skill)',
				options: [
					{
						displayName: 'Category',
						name: 'category',
						values: [
							{
								displayName: 'ID',
								name: 'id',
								type: 'string',
								default: '',
								description: "The category's IRI",
							},
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
							{ displayName: 'Description', name: 'description', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Completion',
				name: 'completion',
				type: 'boolean',
				default: true,
				description: 'Whether the learner completed the activity',
			},
			{
				displayName: 'Duration',
				name: 'duration',
				type: 'string',
				default: '',
				placeholder: 'PT1H30M',
				description:
					'Time spent, as an ISO 8601 duration (PT1H30M, PT45.5S) or a number of seconds',
			},
			{
				displayName: 'ECL ID',
				name: 'eclId',
				type: 'string',
				default: '',
				description: 'Appended to the activity ID as its "ecl_id" query parameter',
			},
			IDEMPOTENCY_KEY_FIELD,
			{
				displayName: 'Instructor Account Name',
				name: 'instructorAccountName',
				type: 'string',
				default: '',
				description: "The instructor's user name or ID on the system given as the home page",
			},
			{
				displayName: 'Instructor Home Page',
				name: 'instructorHomePage',
				type: 'string',
				default: '',
				placeholder: 'https://lms.example.com',
				description: 'The system where the instructor has that account',
			},
			{
				displayName: 'Instructor Name',
				name: 'instructorName',
				type: 'string',
				default: '',
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: 'en-US',
				description: 'The language tag of the names and descriptions (RFC 5646)',
			},
			{
				displayName: 'Registration',
				name: 'registration',
				type: 'string',
				default: '',
				placeholder: '8f87ccde-bb56-4c2e-ab83-44982ef22df0',
				description: 'A UUID that groups the statements of one attempt or enrolment',
			},
			{
				displayName: 'Score (Scaled)',
				name: 'scoreScaled',
				type: 'number',
				typeOptions: { minValue: -1, maxValue: 1, numberPrecision: 4 },
				default: 1,
				description: 'The score from -1 to 1 (e.g. 0.85 for 85%)',
			},
			{
				displayName: 'Statement ID',
				name: 'statementId',
				type: 'string',
				default: '',
				description:
					'A UUID for the statement. Leave empty to have one generated (or derived from the Idempotency Key); sending the same ID again never stores a second copy.',
			},
			{
				displayName: 'Success',
				name: 'success',
				type: 'boolean',
				default: true,
				description: 'Whether the learner passed or succeeded',
			},
			{
				displayName: 'Timestamp',
				name: 'timestamp',
				type: 'dateTime',
				default: '',
				description:
					"When the experience happened. Without a time zone it is read in the workflow's time zone. Empty: the record store uses the time it stores the statement.",
			},
		],
		{ displayOptions: { show: inFieldsMode } },
	),
];
