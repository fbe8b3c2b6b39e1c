import type {
	IExecuteFunctions,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listOfStrings, parseItemInput } from '../../../shared/items/input';
import { issueMessage } from '../../../shared/request/answer';
import type { CourseField, CourseValues } from '../../transport/courseContract';
import {
	COURSE_FIELDS,
	courseValuesSchema,
	EXTERNAL_ID_FIELD,
} from '../../transport/courseContract';
import {
	additionalFieldsProperty,
	coursePicker,
	formProperty,
	pickedCourse,
	TOP_PROPERTIES,
} from './form';

/** Create or Update and Sync Catalog take a course on the form or as the platform's object. */
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
			coursePicker('Your own ID for the course. Sending an existing one updates that course.', {
				displayName: 'External ID',
				firstMode: 'id',
			}),
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

/** The external id even of an invalid item, so Sync Catalog can count the row as present. */
export function readableExternalId(fns: IExecuteFunctions, itemIndex: number): string | undefined {
	try {
		if (fns.getNodeParameter('inputMode', itemIndex, 'fields') !== 'json') {
			return idText(pickedCourse(fns, itemIndex));
		}
		const course = courseObject(fns.getNodeParameter('course', itemIndex));
		return typeof course === 'string' ? undefined : idText(course[EXTERNAL_ID_FIELD]);
	} catch {
		return undefined;
	}
}

function idText(id: unknown): string | undefined {
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}

/** `path` is the API path, e.g. `languages_attributes[0].language_code`. */
type CourseJsonIssue = { path: string; message: string };

type CourseJsonResult =
	| { ok: true; values: CourseValues }
	| { ok: false; issues: CourseJsonIssue[]; externalId?: string };

const BY_API = new Map(COURSE_FIELDS.map((f) => [f.api, f]));
const BY_PARAM = new Map(COURSE_FIELDS.map((f) => [f.param, f]));

/** The entry name of each list of objects, and its keys as API name → form name. */
const ENTRY_KEYS: Record<string, { entry: string; keys: Record<string, string> }> = {};
for (const field of COURSE_FIELDS) {
	const [collection] = (formProperty(field).options ?? []) as INodePropertyCollection[];
	if (!collection?.values) continue;
	const keys = collection.values.map(({ name }) => [
		name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
		name,
	]);
	ENTRY_KEYS[field.api] = { entry: collection.name, keys: Object.fromEntries(keys) };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function typeProblem(field: CourseField, value: unknown): string | undefined {
	if (field.schema === listOfStrings) {
		return typeof value === 'string' ||
			(Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
			? undefined
			: 'must be a list of text (or comma-separated text)';
	}
	const property = formProperty(field);
	switch (property.type) {
		case 'number':
			return typeof value === 'number' ? undefined : 'must be a number';
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'must be true or false';
		case 'fixedCollection':
			return Array.isArray(value) ? undefined : 'must be a list of objects';
		case 'options': {
			const allowed = (property.options as INodePropertyOptions[]).map((o) => String(o.value));
			if (typeof value === 'string' && allowed.includes(value)) return undefined;
			return `must be one of ${allowed.join(', ')}`;
		}
		default:
			return typeof value === 'string' ? undefined : 'must be text';
	}
}

function courseObject(input: unknown): Record<string, unknown> | string {
	let course = input;
	if (typeof course === 'string') {
		try {
			course = JSON.parse(course);
		} catch {
			return 'is not valid JSON';
		}
	}
	return isObject(course)
		? course
		: 'must be a course object, such as { "name": …, "url": …, "external_id": … }';
}

/** The platform's snake_case course object, checked by the form's own schema; unknown keys refused. */
export function parseCourseJson(input: unknown): CourseJsonResult {
	const course = courseObject(input);
	if (typeof course === 'string') return { ok: false, issues: [{ path: '', message: course }] };
	const issues: CourseJsonIssue[] = [];
	const top: Record<string, unknown> = {};
	const additionalFields: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(course)) {
		const field = BY_API.get(key);
		if (!field) {
			issues.push({ path: key, message: 'is not a field of a course' });
			continue;
		}
		if (value === undefined || value === null || value === '') continue;
		const problem = typeProblem(field, value);
		if (problem) {
			issues.push({ path: key, message: problem });
			continue;
		}
		const formValue = ENTRY_KEYS[field.api] ? entries(field, value as unknown[], issues) : value;
		if (formValue === undefined) continue;
		(field.place === 'top' ? top : additionalFields)[field.param] = formValue;
	}
	if (issues.length === 0) {
		const result = valuesSchema.safeParse({ top, additionalFields });
		if (result.success) return { ok: true, values: result.data };
		for (const issue of result.error.issues) {
			issues.push({ path: apiPath(issue.path), message: issueMessage(issue) });
		}
	}
	const seen = new Set<string>();
	return {
		ok: false,
		issues: issues.filter((i) => (seen.has(i.path) ? false : (seen.add(i.path), true))),
		externalId: idText(course[EXTERNAL_ID_FIELD]),
	};
}

function entries(
	field: CourseField,
	list: unknown[],
	issues: CourseJsonIssue[],
): Record<string, unknown> | undefined {
	const { entry, keys } = ENTRY_KEYS[field.api];
	const converted: Array<Record<string, unknown>> = [];
	const before = issues.length;
	list.forEach((item, index) => {
		const at = `${field.api}[${index}]`;
		if (!isObject(item)) {
			issues.push({ path: at, message: 'must be an object' });
			return;
		}
		const formEntry: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(item)) {
			const formKey = keys[key];
			if (!formKey) {
				issues.push({ path: `${at}.${key}`, message: `is not a field of ${entry} entries` });
				continue;
			}
			if (value === null || value === undefined) continue;
			if (formKey !== 'amount' && typeof value !== 'string') {
				issues.push({ path: `${at}.${key}`, message: 'must be text' });
				continue;
			}
			formEntry[formKey] = value;
		}
		converted.push(formEntry);
	});
	return issues.length > before ? undefined : { [entry]: converted };
}

/** `['prices', 'price', 0, 'amount']` → `prices_data[0].amount`; `additionalFields.x` → its API name. */
function apiPath(path: ReadonlyArray<PropertyKey>): string {
	const parts = path.filter((p) => p !== 'top' && p !== 'additionalFields');
	const field = BY_PARAM.get(String(parts[0]));
	if (!field) return parts.map(String).join('.');
	let out = field.api;
	const keys = ENTRY_KEYS[field.api]?.keys;
	const back = Object.fromEntries(Object.entries(keys ?? {}).map(([api, form]) => [form, api]));
	for (const part of parts.slice(keys ? 2 : 1)) {
		out += typeof part === 'number' ? `[${part}]` : `.${back[String(part)] ?? String(part)}`;
	}
	return out;
}
