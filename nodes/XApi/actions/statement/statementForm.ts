import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { randomUUID } from 'crypto';
import { z } from 'zod';

import { illFormedAt, NOT_WELL_FORMED, parseItemInput } from '../../../shared/items/input';
import { additionalFields } from '../../../shared/items/operation';
import {
	ACTIVITY_TYPE_OPTIONS,
	COMPLETED_VERB,
	COURSE_ACTIVITY_TYPE,
	CUSTOM,
	toXapiTimestamp,
	verbDisplayWord,
	VERB_OPTIONS_WITH_CUSTOM,
} from '../../helpers/vocabulary';
import type { StatementWithId } from '../../transport/delivery';
import type { Statement } from '../../validation';
import { formatIssues, formatPath, validateStatement } from '../../validation';

const DEFAULT_LANGUAGE = 'en-US';

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

export function actorFields(
	name: Partial<INodeProperties>,
	email: Partial<INodeProperties> = {},
): INodeProperties[] {
	const field = { type: 'string', required: true, default: '' } as const;
	return [
		{ displayName: 'Actor Name', name: 'actorName', ...field, ...name },
		{
			displayName: 'Actor Email',
			name: 'actorEmail',
			...field,
			placeholder: 'name@email.com',
			...email,
		},
	];
}

export const statementFormFields = inFieldsMode([
	...actorFields(
		{ placeholder: 'Ada Lovelace', description: "The learner's full name" },
		{ description: 'Identifies the learner; sent as "mbox: mailto:…"' },
	),
	{
		displayName: 'Verb',
		name: 'verb',
		type: 'options',
		options: VERB_OPTIONS_WITH_CUSTOM,
		default: COMPLETED_VERB,
		description: 'What the learner did',
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
		displayOptions: { show: { verb: [CUSTOM] } },
	},
	{
		displayName: 'Activity ID',
		name: 'activityId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://learn.example.com/cards/123',
		description: 'The IRI of what the learner acted on, usually the card URL',
	},
	{
		displayName: 'Activity Type',
		name: 'activityType',
		type: 'options',
		options: ACTIVITY_TYPE_OPTIONS,
		default: COURSE_ACTIVITY_TYPE,
	},
	{
		displayName: 'Custom Activity Type',
		name: 'customActivityType',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'http://adlnet.gov/expapi/activities/assessment',
		description: "The activity type's IRI",
		displayOptions: { show: { activityType: [CUSTOM] } },
	},
	{
		displayName: 'Activity Name',
		name: 'activityName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Onboarding course',
	},
	additionalFields([
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
			description: 'Time spent, as an ISO 8601 duration (PT1H30M, PT45.5S) or a number of seconds',
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
			default: DEFAULT_LANGUAGE,
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
	]),
]);

function inFieldsMode(fields: INodeProperties[]): INodeProperties[] {
	return fields.map((field) => ({
		...field,
		displayOptions: { show: { inputMode: ['fields'], ...field.displayOptions?.show } },
	}));
}

/** Text the form needs; what an expression yields as nothing (or a number) is read as text. */
const requiredText = z.preprocess(
	(value) =>
		value === undefined || value === null ? '' : typeof value === 'number' ? String(value) : value,
	z.string().trim().min(1, 'is required'),
);
export const optionalText = z
	.union([z.string(), z.number()])
	.optional()
	.transform((value) => (value === undefined ? undefined : String(value).trim() || undefined));

const categorySchema = z.object({
	id: optionalText,
	name: optionalText,
	description: optionalText,
});

/** Shape only; xAPI rules are the validator's job. */
const statementFormSchema = z
	.object({
		actorName: requiredText,
		actorEmail: requiredText.transform((value) => value.replace(/^mailto:/i, '')),
		verb: requiredText,
		customVerbId: optionalText,
		activityId: requiredText,
		activityType: requiredText,
		customActivityType: optionalText,
		activityName: requiredText,
		additionalFields: z
			.object({
				language: optionalText,
				activityDescription: optionalText,
				eclId: optionalText,
				scoreScaled: z.coerce.number().optional(),
				success: z.boolean().optional(),
				completion: z.boolean().optional(),
				duration: optionalText,
				registration: optionalText,
				categories: z.object({ category: z.array(categorySchema).optional() }).optional(),
				instructorName: optionalText,
				instructorHomePage: optionalText,
				instructorAccountName: optionalText,
				timestamp: z.unknown().optional(),
				statementId: optionalText,
				idempotencyKey: optionalText,
			})
			.strict(),
	})
	.superRefine((form, ctx) => {
		const customs = [
			['verb', 'customVerbId', 'verb'],
			['activityType', 'customActivityType', 'activity type'],
		] as const;
		for (const [choice, custom, what] of customs) {
			if (form[choice] !== CUSTOM || form[custom]) continue;
			ctx.addIssue({ code: 'custom', path: [custom], message: `is required for a custom ${what}` });
		}
	});

type StatementForm = z.infer<typeof statementFormSchema>;

export function statementFromForm(
	fns: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): Record<string, unknown> {
	const parameter = (name: string, fallback: unknown = '') =>
		fns.getNodeParameter(name, itemIndex, fallback) as unknown;
	const verb = parameter('verb');
	const activityType = parameter('activityType');
	const form = parseItemInput(
		fns.getNode(),
		itemIndex,
		statementFormSchema,
		{
			actorName: parameter('actorName'),
			actorEmail: parameter('actorEmail'),
			verb,
			customVerbId: verb === CUSTOM ? parameter('customVerbId') : undefined,
			activityId: parameter('activityId'),
			activityType,
			customActivityType: activityType === CUSTOM ? parameter('customActivityType') : undefined,
			activityName: parameter('activityName'),
			additionalFields: parameter('additionalFields', {}),
		},
		'Invalid input',
		properties,
	);
	const given = form.additionalFields.timestamp;
	const blank = given === undefined || given === null || given === '';
	const timestamp = blank ? undefined : toXapiTimestamp(given, fns.getTimezone());
	if (!blank && !timestamp) {
		throw new NodeOperationError(
			fns.getNode(),
			`Invalid input on item ${itemIndex}: Additional Fields → Timestamp: "${String(given)}" is not a date and time`,
			{ itemIndex },
		);
	}
	return buildStatement(form, timestamp);
}

function buildStatement(
	form: StatementForm,
	timestamp: string | undefined,
): Record<string, unknown> {
	const fields = form.additionalFields;
	const language = fields.language ?? DEFAULT_LANGUAGE;
	const inLanguage = (value: string | undefined) => (value ? { [language]: value } : undefined);
	const verbId = form.verb === CUSTOM ? (form.customVerbId as string) : form.verb;
	const activityType =
		form.activityType === CUSTOM ? (form.customActivityType as string) : form.activityType;
	const categories = (fields.categories?.category ?? [])
		.filter((category) => category.id || category.name || category.description)
		.map((category) => ({
			objectType: 'Activity',
			...compact({
				id: category.id,
				definition: compact({
					name: inLanguage(category.name),
					description: inLanguage(category.description),
				}),
			}),
		}));
	return (
		compact({
			id: fields.statementId,
			actor: { name: form.actorName, mbox: `mailto:${form.actorEmail}` },
			verb: compact({ id: verbId, display: inLanguage(verbDisplayWord(verbId)) }),
			object: {
				objectType: 'Activity',
				id: withEclId(form.activityId, fields.eclId),
				definition: compact({
					type: activityType,
					name: inLanguage(form.activityName),
					description: inLanguage(fields.activityDescription),
				}),
			},
			result: compact({
				score: fields.scoreScaled === undefined ? undefined : { scaled: fields.scoreScaled },
				success: fields.success,
				completion: fields.completion,
				duration: fields.duration === undefined ? undefined : isoDuration(fields.duration),
			}),
			context: compact({
				registration: fields.registration,
				contextActivities: categories.length > 0 ? { category: categories } : undefined,
				instructor: compact({
					name: fields.instructorName,
					account: compact({
						homePage: fields.instructorHomePage,
						name: fields.instructorAccountName,
					}),
				}),
			}),
			timestamp,
		}) ?? {}
	);
}

/** Adds `ecl_id` to the activity IRI's query, before any fragment, leaving the rest as written. */
function withEclId(activityId: string, eclId: string | undefined): string {
	if (!eclId) return activityId;
	const hash = activityId.indexOf('#');
	const base = hash < 0 ? activityId : activityId.slice(0, hash);
	const fragment = hash < 0 ? '' : activityId.slice(hash);
	const separator = base.includes('?') ? (/[?&]$/.test(base) ? '' : '&') : '?';
	return `${base}${separator}ecl_id=${encodeURIComponent(eclId)}${fragment}`;
}

/** A plain number of seconds becomes `PT…S`; anything else is left for the validator to judge. */
function isoDuration(value: string): string {
	return /^\d+(\.\d+)?$/.test(value) ? `PT${value}S` : value;
}

function compact(value: Record<string, unknown>): Record<string, unknown> | undefined {
	const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
	return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** So that a problem reads "Activity ID: …" rather than "object.id: …". */
const FORM_LABELS: Array<[RegExp, string]> = [
	[/^actor\.name$/, 'Actor Name'],
	[/^actor(\.mbox)?$/, 'Actor Email'],
	[/^verb(\.id)?$/, 'Verb'],
	[/^object(\.id)?$/, 'Activity ID'],
	[/^object\.definition\.type$/, 'Activity Type'],
	[/^object\.definition\.name/, 'Activity Name'],
	[/^object\.definition\.description/, 'Additional Fields → Activity Description'],
	[/^result\.score(\.scaled)?$/, 'Additional Fields → Score (Scaled)'],
	[/^result\.success$/, 'Additional Fields → Success'],
	[/^result\.completion$/, 'Additional Fields → Completion'],
	[/^result\.duration$/, 'Additional Fields → Duration'],
	[/^context\.registration$/, 'Additional Fields → Registration'],
	[
		/^context\.contextActivities\.category\[(\d+)\](\.id)?/,
		'Additional Fields → Categories → ID (category #)',
	],
	[/^context\.instructor\.name$/, 'Additional Fields → Instructor Name'],
	[/^context\.instructor\.account\.homePage$/, 'Additional Fields → Instructor Home Page'],
	[/^context\.instructor\.account\.name$/, 'Additional Fields → Instructor Account Name'],
	[/^timestamp$/, 'Additional Fields → Timestamp'],
	[/^id$/, 'Additional Fields → Statement ID'],
];

export function formLabelOf(path: string): string {
	for (const [pattern, label] of FORM_LABELS) {
		const match = pattern.exec(path);
		if (match) return label.replace('#', String(Number(match[1]) + 1));
	}
	return path;
}

/** The id is fixed before the first attempt; ill-formed text would be stored as U+FFFD, so it is refused. */
export function checkedStatement(
	node: INode,
	itemIndex: number,
	statement: unknown,
	labelOf: (path: string) => string = (path) => path,
): StatementWithId {
	const result = validateStatement(statement);
	const broken = illFormedAt(statement);
	const issues = [
		...(result.ok ? [] : result.issues),
		...(broken ? [{ path: formatPath(broken), message: NOT_WELL_FORMED }] : []),
	].map((issue) => ({ ...issue, path: labelOf(issue.path) }));
	if (issues.length > 0) {
		const description = issues.map((issue) => `• ${issue.path}: ${issue.message}`).join('\n');
		const message = `Invalid statement on item ${itemIndex}: ${formatIssues(issues)}`;
		throw new NodeOperationError(node, message, { itemIndex, description });
	}
	const original = statement as Statement;
	// The id goes first so that it is the first thing seen in the output and in the store's logs.
	return { id: original.id ?? randomUUID(), ...original } as StatementWithId;
}
