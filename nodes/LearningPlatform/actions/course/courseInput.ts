import type { IExecuteFunctions, INodeProperties, INodePropertyCollection } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isPlainObject, parseItemInput } from '../../../shared/form/input';
import { issueMessage } from '../../../shared/request/body';
import type { CourseField, CourseValues } from '../../transport/courses';
import { EXTERNAL_ID_FIELD } from '../../transport';
import { COURSE_FIELDS, present } from '../../transport/courses';
import { coursePicker, pickedCourse } from '../fields';
import {
	additionalFieldsProperty,
	courseValuesSchema,
	formProperty,
	listedFieldNames,
	spoken,
	TOP_PROPERTIES,
	unlistedFieldNames,
} from './form';

/** The course as Upsert and Sync Catalog read it: from the form's fields or as the platform's JSON. */

export const KEEP_CURRENT_VALUES: INodeProperties = {
	displayName: 'Keep Current Values',
	name: 'keepCurrentValues',
	type: 'boolean',
	default: false,
	description: `Whether to fill the fields left empty with the course's current values from the catalog, where the catalog listing has them (${spoken(listedFieldNames(), 'and')}; not ${spoken(unlistedFieldNames('upsert'))}). The output names the fields kept and those the platform will clear.`,
};

export function courseInputProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Input Mode',
			name: 'inputMode',
			type: 'options',
			options: [
				{
					name: 'Fields',
					value: 'fields',
					description: 'Map each course field on the form',
				},
				{
					name: 'JSON',
					value: 'json',
					description:
						"Give the whole course as the platform's own object, with its API field names (external_id, prices_data, content_type, …)",
				},
			],
			default: 'fields',
		},
		{
			displayName: 'Course',
			name: 'course',
			type: 'json',
			default: '{\n  "external_id": "",\n  "name": "",\n  "url": "",\n  "prices_data": []\n}',
			required: true,
			description:
				"The course as an object with the platform's API field names (snake_case), or text holding one, e.g. the whole item when the previous step built it. Unknown keys are refused; null or empty values count as not given.",
			displayOptions: { show: { inputMode: ['json'] } },
		},
		...[
			{
				...coursePicker('Your own ID for the course. Sending an existing one updates that course.'),
				displayName: 'External ID',
				default: { mode: 'id', value: '' },
			},
			...TOP_PROPERTIES.filter((p) => p.name !== 'externalId'),
			additionalFieldsProperty('upsert'),
		].map((p) => ({ ...p, displayOptions: { show: { inputMode: ['fields'] } } })),
	];
}

const valuesSchema = courseValuesSchema('upsert', true);

const labelled = [...TOP_PROPERTIES, additionalFieldsProperty('upsert')];

export function readCourse(fns: IExecuteFunctions, itemIndex: number): CourseValues {
	if (fns.getNodeParameter('inputMode', itemIndex, 'fields') === 'json') {
		const result = parseCourseJson(fns.getNodeParameter('course', itemIndex));
		if (result.ok) return result.values;
		const lines = result.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
		throw new NodeOperationError(
			fns.getNode(),
			`Invalid course on item ${itemIndex}${result.externalId ? ` ("${result.externalId}")` : ''}: ${lines.join('; ')}`,
			{ itemIndex, description: lines.map((line) => `• ${line}`).join('\n') },
		);
	}
	return parseItemInput(
		fns.getNode(),
		itemIndex,
		valuesSchema,
		{
			top: Object.fromEntries(
				TOP_PROPERTIES.map((field) => [
					field.name,
					field.name === 'externalId'
						? pickedCourse(fns, itemIndex)
						: fns.getNodeParameter(field.name, itemIndex, field.default),
				]),
			),
			additionalFields: fns.getNodeParameter('additionalFields', itemIndex, {}),
		},
		'Invalid input',
		labelled,
	);
}

export function idText(id: unknown): string | undefined {
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}

/** `path` is the API path, e.g. `languages_attributes[0].language_code`. */
type CourseJsonIssue = { path: string; message: string };

type CourseJsonResult =
	| { ok: true; values: CourseValues }
	| { ok: false; issues: CourseJsonIssue[]; externalId?: string };

/** The lists of objects ("price", "language"), by parameter: their entries' keys are the form's, snake_case. */
const ENTRIES = new Map(
	COURSE_FIELDS.flatMap((field) => {
		const [collection] = (formProperty(field).options ?? []) as INodePropertyCollection[];
		return collection?.values ? [[field.param, collection] as const] : [];
	}),
);

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function courseObject(input: unknown): Record<string, unknown> | string {
	let course = input;
	if (typeof course === 'string') {
		try {
			course = JSON.parse(course);
		} catch {
			return 'is not valid JSON';
		}
	}
	return isPlainObject(course)
		? course
		: 'must be a course object, such as { "name": …, "url": …, "external_id": … }';
}

/** The platform's snake_case course object, checked by the form's own schema; unknown keys refused. */
export function parseCourseJson(input: unknown): CourseJsonResult {
	const course = courseObject(input);
	if (typeof course === 'string') return { ok: false, issues: [{ path: '', message: course }] };
	const issues: CourseJsonIssue[] = [];
	const form = { top: {} as Record<string, unknown>, additional: {} as Record<string, unknown> };
	for (const [key, value] of Object.entries(course)) {
		const field = COURSE_FIELDS.find((f) => f.api === key);
		if (!field) issues.push({ path: key, message: 'is not a field of a course' });
		else if (present(value)) {
			const before = issues.length;
			const converted = formValue(field, value, issues);
			if (issues.length === before) form[field.place][field.param] = converted;
		}
	}
	const result = valuesSchema.safeParse({ top: form.top, additionalFields: form.additional });
	if (result.success && issues.length === 0) return { ok: true, values: result.data };
	for (const issue of result.error?.issues ?? []) {
		const path = apiPath(issue.path);
		if (!issues.some((i) => i.path === path)) issues.push({ path, message: issueMessage(issue) });
	}
	return { ok: false, issues, externalId: idText(course[EXTERNAL_ID_FIELD]) };
}

/** A list of objects as the form holds it: `[{ language_code }]` → `{ language: [{ languageCode }] }`; a field with issues is left out. */
function formValue(field: CourseField, value: unknown, issues: CourseJsonIssue[]): unknown {
	const collection = ENTRIES.get(field.param);
	if (!collection) return value;
	const refuse = (path: string, message: string) => void issues.push({ path, message });
	if (!Array.isArray(value)) return refuse(field.api, 'must be a list of objects');
	const names = new Map(collection.values.map(({ name }) => [snakeCase(name), name]));
	const entries = value.map((item, index) => {
		const at = `${field.api}[${index}]`;
		if (!isPlainObject(item)) return refuse(at, 'must be an object');
		const entry: Record<string, unknown> = {};
		for (const [key, part] of Object.entries(item)) {
			const name = names.get(key);
			if (!name) refuse(`${at}.${key}`, `is not a field of ${collection.name} entries`);
			else if (part === null || part === undefined) continue;
			else if (name === 'amount' || typeof part === 'string') entry[name] = part;
			else refuse(`${at}.${key}`, 'must be text');
		}
		return entry;
	});
	return { [collection.name]: entries };
}

/** `['prices', 'price', 0, 'amount']` → `prices_data[0].amount`; `additionalFields.x` → its API name. */
function apiPath(path: ReadonlyArray<PropertyKey>): string {
	const [param, ...steps] = path.filter((p) => p !== 'additionalFields');
	let out = COURSE_FIELDS.find((f) => f.param === param)?.api ?? String(param);
	for (const step of steps.slice(ENTRIES.has(String(param)) ? 1 : 0)) {
		out += typeof step === 'number' ? `[${step}]` : `.${snakeCase(String(step))}`;
	}
	return out;
}
