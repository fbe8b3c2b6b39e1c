/**
 * One form of a node as a builder reaches it: a resource and an operation
 * chosen by their display names, then (optionally) options chosen or
 * switches flipped that show more fields.
 */
export interface FormSpec {
	resource?: string;
	operation?: string;
	/** Select parameters set by option display name, in order (parameter name → option). */
	choose?: Array<[parameter: string, option: string]>;
	/** Boolean parameters flipped from their default. */
	flip?: string[];
	/** The main controls, by the labels the editor must show. */
	controls: string[];
	/** Why this variant is visited (for the test's messages). */
	note?: string;
}

export function formName(form: FormSpec): string {
	const parts = [form.resource, form.operation].filter(Boolean).join(' → ');
	const extra = [
		...(form.choose ?? []).map(([parameter, option]) => `${parameter} = ${option}`),
		...(form.flip ?? []).map((parameter) => `${parameter} flipped`),
	];
	return [parts || 'the form', ...(extra.length > 0 ? [`(${extra.join(', ')})`] : [])].join(' ');
}

/** Every resource and operation of the Learning Platform node. The first is the one the node creator opens. */
export const LEARNING_PLATFORM_FORMS: FormSpec[] = [
	{
		resource: 'Course',
		operation: 'Create or Update',
		controls: [
			'Credential',
			'Resource',
			'Operation',
			'External ID',
			'Name',
			'URL',
			'Prices',
			'Additional Fields',
			'Options',
		],
	},
	{ resource: 'Course', operation: 'Get Many', controls: ['Return All', 'Limit', 'Options'] },
	{
		resource: 'Course',
		operation: 'Get Many',
		flip: ['returnAll'],
		controls: ['Return All', 'Options'],
	},
	{
		resource: 'Course',
		operation: 'Archive',
		controls: ['Course', 'Additional Fields', 'Options'],
	},
	{
		resource: 'Course',
		operation: 'Create or Update',
		controls: ['External ID', 'Name', 'URL', 'Prices', 'Additional Fields', 'Options'],
		note: 'straight after Archive, as a builder who looks around does',
	},
	{
		resource: 'Assignment',
		operation: 'Assign',
		controls: ['Email', 'Course', 'Additional Fields', 'Options'],
	},
	{ resource: 'Assignment', operation: 'Start', controls: ['Email', 'Course', 'Options'] },
	{
		resource: 'Assignment',
		operation: 'Complete',
		controls: ['Email', 'Course', 'End Date', 'Options'],
	},
	{ resource: 'Assignment', operation: 'Withdraw', controls: ['Email', 'Course', 'Options'] },
	{ resource: 'Transaction', operation: 'Get', controls: ['Transaction ID'] },
	{ resource: 'Transaction', operation: 'Wait', controls: ['Transaction ID', 'Options'] },
];

/** Every operation of the xAPI node, and the variants that show more fields. */
export const XAPI_FORMS: FormSpec[] = [
	{
		resource: 'Statement',
		operation: 'Send',
		controls: [
			'Credential',
			'Resource',
			'Operation',
			'Input Mode',
			'Actor Name',
			'Actor Email',
			'Verb',
			'Activity ID',
			'Activity Type',
			'Activity Name',
			'Additional Fields',
			'Options',
		],
	},
	{
		resource: 'Statement',
		operation: 'Send',
		choose: [
			['verb', 'Custom'],
			['activityType', 'Custom'],
		],
		controls: ['Verb', 'Custom Verb ID', 'Activity Type', 'Custom Activity Type'],
	},
	{
		resource: 'Statement',
		operation: 'Send',
		choose: [['inputMode', 'JSON']],
		controls: ['Input Mode', 'Statement', 'Options'],
	},
	{ resource: 'Statement', operation: 'Get', controls: ['Statement ID', 'Options'] },
	{ resource: 'Statement', operation: 'Get Many', controls: ['Return All', 'Limit', 'Filters'] },
	{
		resource: 'Statement',
		operation: 'Get Many',
		flip: ['returnAll'],
		controls: ['Return All', 'Filters', 'Options'],
	},
	{
		resource: 'Statement',
		operation: 'Void',
		controls: ['Statement ID', 'Actor Name', 'Actor Email'],
	},
];

/** The xAPI Trigger has one form; n8n adds Poll Times to every polling trigger. */
export const XAPI_TRIGGER_FORMS: FormSpec[] = [
	{ controls: ['Credential', 'Poll Times', 'Filters', 'Verb'] },
];

/** The credential dialogs' fields, by label. */
export const LMS_CREDENTIAL_FIELDS = [
	'Base URL',
	'Client ID',
	'Client Secret',
	'Requests per Minute',
	'Request Timeout (Seconds)',
];

export const XAPI_CREDENTIAL_FIELDS_TOKEN = [
	'xAPI Endpoint',
	'Authentication',
	'Token',
	'Request Timeout (Seconds)',
];

export const XAPI_CREDENTIAL_FIELDS_BASIC = [
	'xAPI Endpoint',
	'Authentication',
	'Username',
	'Password',
	'Request Timeout (Seconds)',
];
