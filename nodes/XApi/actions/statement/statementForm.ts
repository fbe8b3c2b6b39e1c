import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { randomUUID } from 'crypto';
import { z } from 'zod';

import { illFormedAt } from '../../../shared/form/illFormed';
import { NOT_WELL_FORMED, parseItemInput, additionalFields } from '../../../shared/form/input';
import { field } from '../../helpers/statementInput';
import {
	ACTIVITY_TYPE_OPTIONS,
	COMPLETED_VERB,
	COURSE_ACTIVITY_TYPE,
	CUSTOM,
	toXapiTimestamp,
	verbDisplayWord,
	VERB_OPTIONS_WITH_CUSTOM,
} from '../../helpers/vocabulary';
import type { StatementWithId } from '../../transport/statementIds';
import { formatIssues, formatPath, type Statement, validateStatement } from '../../validation';

const DEFAULT_LANGUAGE = 'en-US';

/** A form field's property, and `at`: where its problems are in the statement ("object.id"). */
type FormRow = INodeProperties & { at?: RegExp };

/** The statement id derives from it (UUID v5), so an event sent again is stored once. */
export const IDEMPOTENCY_KEY_FIELD = field('Idempotency Key', 'idempotencyKey', {
	placeholder: 'e.g. {{ $json.completionId }}',
	description:
		"Text that names the event, e.g. the completion's ID in the sending system. The statement ID is derived from it, the same in every run, so an event sent again (a webhook delivered twice, a re-run execution) is stored once. Not together with Statement ID.",
});

export function actorFields(name: Partial<FormRow>, email: Partial<FormRow> = {}): FormRow[] {
	return [
		field('Actor Name', 'actorName', { required: true, ...name }),
		field('Actor Email', 'actorEmail', { required: true, placeholder: 'name@email.com', ...email }),
	];
}

const mainRows: FormRow[] = [
	...actorFields(
		{ at: /^actor\.name$/, placeholder: 'Ada Lovelace', description: "The learner's full name" },
		{ at: /^actor(?:\.mbox)?$/, description: 'Identifies the learner; sent as "mbox: mailto:…"' },
	),
	field('Verb', 'verb', {
		type: 'options',
		options: VERB_OPTIONS_WITH_CUSTOM,
		default: COMPLETED_VERB,
		description: 'What the learner did',
		at: /^verb(?:\.id)?$/,
	}),
	field('Custom Verb ID', 'customVerbId', {
		required: true,
		placeholder: 'http://adlnet.gov/expapi/verbs/attempted',
		description:
			'The verb\'s IRI. Its last path segment becomes the verb\'s display word ("attempted").',
		displayOptions: { show: { verb: [CUSTOM] } },
	}),
	field('Activity ID', 'activityId', {
		at: /^object(?:\.id)?$/,
		required: true,
		placeholder: 'https://learn.example.com/cards/123',
		description: 'The IRI of what the learner acted on, usually the card URL',
	}),
	field('Activity Type', 'activityType', {
		type: 'options',
		options: ACTIVITY_TYPE_OPTIONS,
		default: COURSE_ACTIVITY_TYPE,
		at: /^object\.definition\.type$/,
	}),
	field('Custom Activity Type', 'customActivityType', {
		required: true,
		placeholder: 'http://adlnet.gov/expapi/activities/assessment',
		description: "The activity type's IRI",
		displayOptions: { show: { activityType: [CUSTOM] } },
	}),
	field('Activity Name', 'activityName', {
		at: /^object\.definition\.name/,
		required: true,
		placeholder: 'Onboarding course',
	}),
];

const extraRows: FormRow[] = [
	field('Activity Description', 'activityDescription', {
		typeOptions: { rows: 2 },
		at: /^object\.definition\.description/,
	}),
	field('Categories', 'categories', {
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
					field('ID', 'id', { description: "The category's IRI" }),
					field('Name', 'name'),
					field('Description', 'description'),
				],
			},
		],
		at: /^context\.contextActivities\.category\[(\d+)\](?:\.id)?/,
	}),
	field('Completion', 'completion', {
		type: 'boolean',
		default: true,
		description: 'Whether the learner completed the activity',
		at: /^result\.completion$/,
	}),
	field('Duration', 'duration', {
		at: /^result\.duration$/,
		placeholder: 'PT1H30M',
		description: 'Time spent, as an ISO 8601 duration (PT1H30M, PT45.5S) or a number of seconds',
	}),
	field('ECL ID', 'eclId', {
		description: 'Appended to the activity ID as its "ecl_id" query parameter',
	}),
	IDEMPOTENCY_KEY_FIELD,
	field('Instructor Account Name', 'instructorAccountName', {
		at: /^context\.instructor\.account\.name$/,
		description: "The instructor's user name or ID on the system given as the home page",
	}),
	field('Instructor Home Page', 'instructorHomePage', {
		at: /^context\.instructor\.account\.homePage$/,
		placeholder: 'https://lms.example.com',
		description: 'The system where the instructor has that account',
	}),
	field('Instructor Name', 'instructorName', { at: /^context\.instructor\.name$/ }),
	field('Language', 'language', {
		default: DEFAULT_LANGUAGE,
		description: 'The language tag of the names and descriptions (RFC 5646)',
	}),
	field('Registration', 'registration', {
		at: /^context\.registration$/,
		placeholder: '8f87ccde-bb56-4c2e-ab83-44982ef22df0',
		description: 'A UUID that groups the statements of one attempt or enrolment',
	}),
	field('Score (Scaled)', 'scoreScaled', {
		type: 'number',
		typeOptions: { minValue: -1, maxValue: 1, numberPrecision: 4 },
		default: 1,
		description: 'The score from -1 to 1 (e.g. 0.85 for 85%)',
		at: /^result\.score(?:\.scaled)?$/,
	}),
	field('Statement ID', 'statementId', {
		at: /^id$/,
		description:
			'A UUID for the statement. Leave empty to have one generated (or derived from the Idempotency Key); sending the same ID again never stores a second copy.',
	}),
	field('Success', 'success', {
		type: 'boolean',
		default: true,
		description: 'Whether the learner passed or succeeded',
		at: /^result\.success$/,
	}),
	field('Timestamp', 'timestamp', {
		type: 'dateTime',
		description:
			"When the experience happened. Without a time zone it is read in the workflow's time zone. Empty: the record store uses the time it stores the statement.",
		at: /^timestamp$/,
	}),
];

const withoutAt = (rows: FormRow[]) =>
	rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'at')));
const form = [
	...withoutAt(mainRows),
	additionalFields(withoutAt(extraRows) as INodeProperties[]),
] as INodeProperties[];

export const statementFormFields = updateDisplayOptions({ show: { inputMode: ['fields'] } }, form);

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

/** Shape only; xAPI rules are the validator's job. A field shown only for a choice is checked below. */
function shapeOf({ type, required, displayOptions, options }: INodeProperties): z.ZodTypeAny {
	if (type === 'boolean') return z.boolean().optional();
	if (type === 'number') return z.coerce.number().optional();
	if (type === 'dateTime') return z.unknown().optional();
	if (type === 'fixedCollection') {
		const [{ name, values }] = options as Array<{ name: string; values: INodeProperties[] }>;
		return z.object({ [name]: z.array(z.object(shapes(values))).optional() }).optional();
	}
	return (required || type === 'options') && !displayOptions ? requiredText : optionalText;
}

const shapes = (rows: INodeProperties[]) =>
	Object.fromEntries(rows.map((row) => [row.name, shapeOf(row)]));

const statementFormSchema = z
	.object({
		...shapes(mainRows),
		additionalFields: z.object(shapes(extraRows)).strict(),
	})
	.superRefine((form: Record<string, unknown>, ctx) => {
		for (const { name, displayOptions } of mainRows) {
			const [choice] = Object.keys(displayOptions?.show ?? {});
			if (!choice || form[choice] !== CUSTOM || form[name]) continue;
			const what = mainRows.find((row) => row.name === choice)?.displayName.toLowerCase();
			ctx.addIssue({ code: 'custom', path: [name], message: `is required for a custom ${what}` });
		}
	});

type Text = Record<string, string | undefined>;

/** A field shown only for a choice (a custom verb's IRI) is read only when that choice is made. */
export function statementFromForm(fns: IExecuteFunctions, itemIndex: number) {
	const given: Record<string, unknown> = {};
	for (const { name, displayOptions } of mainRows) {
		const shown = Object.entries(displayOptions?.show ?? {}).every(([choice, values]) =>
			values?.includes(given[choice] as string),
		);
		if (shown) given[name] = fns.getNodeParameter(name, itemIndex, '') as unknown;
	}
	given.additionalFields = fns.getNodeParameter('additionalFields', itemIndex, {});
	const parsed: Record<string, unknown> = parseItemInput(
		fns.getNode(),
		itemIndex,
		statementFormSchema,
		given,
		'Invalid input',
		form,
	);
	const fields = parsed.additionalFields as Text;
	const time: unknown = fields.timestamp;
	const blank = time === undefined || time === null || time === '';
	const timestamp = blank ? undefined : toXapiTimestamp(time, fns.getTimezone());
	if (blank || timestamp) return buildStatement(parsed as Text, fields, timestamp);
	const message = `Invalid input on item ${itemIndex}: Additional Fields → Timestamp: "${String(time)}" is not a date and time`;
	throw new NodeOperationError(fns.getNode(), message, { itemIndex });
}

function buildStatement(form: Text, fields: Text, timestamp: string | undefined) {
	const language = fields.language ?? DEFAULT_LANGUAGE;
	const inLanguage = (value: string | undefined) => (value ? { [language]: value } : undefined);
	const definition = (name?: string, description?: string, type?: string) =>
		compact({ type, name: inLanguage(name), description: inLanguage(description) });
	const verbId = (form.verb === CUSTOM ? form.customVerbId : form.verb) as string;
	const activityType = form.activityType === CUSTOM ? form.customActivityType : form.activityType;
	const given = fields.categories as { category?: Text[] } | undefined;
	const categories = (given?.category ?? [])
		.filter((category) => category.id || category.name || category.description)
		.map((category) => ({
			objectType: 'Activity',
			...compact({ id: category.id, definition: definition(category.name, category.description) }),
		}));
	return compact({
		id: fields.statementId,
		actor: { name: form.actorName, mbox: `mailto:${form.actorEmail?.replace(/^mailto:/i, '')}` },
		verb: compact({ id: verbId, display: inLanguage(verbDisplayWord(verbId)) }),
		object: {
			objectType: 'Activity',
			id: withEclId(form.activityId as string, fields.eclId),
			definition: definition(form.activityName, fields.activityDescription, activityType),
		},
		result: compact({
			score: compact({ scaled: fields.scoreScaled }),
			success: fields.success,
			completion: fields.completion,
			// A number of seconds is written as a duration.
			duration: fields.duration?.replace(/^\d+(\.\d+)?$/, 'PT$&S'),
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
	});
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

function compact(value: Record<string, unknown>): Record<string, unknown> | undefined {
	const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
	return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** A problem at "object.id" reads "Activity ID: …". */
export function formLabelOf(path: string): string {
	for (const row of [...mainRows, ...extraRows]) {
		const match = row.at?.exec(path);
		if (!match) continue;
		const label = mainRows.includes(row)
			? row.displayName
			: `Additional Fields → ${row.displayName}`;
		return match[1] ? `${label} → ID (category ${Number(match[1]) + 1})` : label;
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
