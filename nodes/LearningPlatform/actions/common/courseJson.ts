import type { INodePropertyOptions } from 'n8n-workflow';

import { listOfStrings } from '../../../shared/items/input';
import { issueMessage } from '../../../shared/request/answer';
import type { CourseField, CourseValues } from '../../transport/courseContract';
import {
	COURSE_FIELDS,
	courseValuesSchema,
	EXTERNAL_ID_FIELD,
} from '../../transport/courseContract';
import { formProperty } from './courseForm';

/** The platform's snake_case course object, checked by the form's own schema; unknown keys refused. */

export interface CourseJsonIssue {
	/** The API path, e.g. `languages_attributes[0].language_code`. */
	path: string;
	message: string;
}

export type CourseJsonResult =
	| { ok: true; values: CourseValues }
	| { ok: false; issues: CourseJsonIssue[]; externalId?: string };

/** The fields a course object may carry (upsert's: status included). */
const FIELDS = COURSE_FIELDS;
const BY_API = new Map(FIELDS.map((f) => [f.api, f]));
const BY_PARAM = new Map(FIELDS.map((f) => [f.param, f]));

/** Entry keys of the two lists of objects, API name → form name. */
const ENTRY_KEYS: Record<string, { entry: string; keys: Record<string, string> }> = {};
for (const field of FIELDS) {
	if (formProperty(field).type !== 'fixedCollection') continue;
	const collection = (formProperty(field).options ?? [])[0] as unknown as {
		name: string;
		values: Array<{ name: string }>;
	};
	const keys: Record<string, string> = {};
	for (const value of collection.values) keys[snake(value.name)] = value.name;
	ENTRY_KEYS[field.api] = { entry: collection.name, keys };
}

function snake(name: string): string {
	return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

const schema = courseValuesSchema('upsert', true);

type Kind = 'text' | 'number' | 'boolean' | 'list' | 'entries' | 'choice';

function kindOf(field: CourseField): Kind {
	if (field.schema === listOfStrings) return 'list';
	switch (formProperty(field).type) {
		case 'number':
			return 'number';
		case 'boolean':
			return 'boolean';
		case 'fixedCollection':
			return 'entries';
		case 'options':
			return 'choice';
		default:
			return 'text';
	}
}

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function typeProblem(field: CourseField, value: unknown): string | undefined {
	switch (kindOf(field)) {
		case 'text':
			return typeof value === 'string' ? undefined : 'must be text';
		case 'number':
			return typeof value === 'number' ? undefined : 'must be a number';
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'must be true or false';
		case 'list':
			return typeof value === 'string' ||
				(Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
				? undefined
				: 'must be a list of text (or comma-separated text)';
		case 'entries':
			return Array.isArray(value) ? undefined : 'must be a list of objects';
		case 'choice': {
			const allowed = (formProperty(field).options as INodePropertyOptions[]).map((o) =>
				String(o.value),
			);
			if (typeof value === 'string' && allowed.includes(value)) return undefined;
			return `must be one of ${allowed.join(', ')}`;
		}
	}
}

/** The external id as given, when it can be read (to name an invalid course). */
export function externalIdOf(course: unknown): string | undefined {
	if (typeof course === 'string') {
		try {
			return externalIdOf(JSON.parse(course));
		} catch {
			return undefined;
		}
	}
	if (!isObject(course)) return undefined;
	const id = course[EXTERNAL_ID_FIELD];
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}

export function parseCourseJson(input: unknown): CourseJsonResult {
	let course = input;
	if (typeof course === 'string') {
		try {
			course = JSON.parse(course);
		} catch {
			return { ok: false, issues: [{ path: '', message: 'is not valid JSON' }] };
		}
	}
	if (!isObject(course)) {
		return {
			ok: false,
			issues: [
				{
					path: '',
					message: 'must be a course object, such as { "name": …, "url": …, "external_id": … }',
				},
			],
		};
	}
	const issues: CourseJsonIssue[] = [];
	const top: Record<string, unknown> = {};
	const additionalFields: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(course)) {
		const field = BY_API.get(key);
		if (!field) {
			issues.push({ path: key, message: 'is not a field of a course' });
			continue;
		}
		if (!given(value)) continue;
		const problem = typeProblem(field, value);
		if (problem) {
			issues.push({ path: key, message: problem });
			continue;
		}
		const formValue =
			formProperty(field).type === 'fixedCollection'
				? entries(field, value as unknown[], issues)
				: value;
		if (formValue === undefined) continue;
		(field.place === 'top' ? top : additionalFields)[field.param] = formValue;
	}
	if (issues.length === 0) {
		const result = schema.safeParse({ top, additionalFields });
		if (result.success) return { ok: true, values: result.data };
		for (const issue of result.error.issues) {
			issues.push({ path: apiPath(issue.path), message: issueMessage(issue) });
		}
	}
	return { ok: false, issues: unique(issues), externalId: externalIdOf(course) };
}

function entries(
	field: CourseField,
	list: unknown[],
	issues: CourseJsonIssue[],
): Record<string, unknown> | undefined {
	const { entry, keys } = ENTRY_KEYS[field.api];
	const converted: Array<Record<string, unknown>> = [];
	let bad = false;
	list.forEach((item, index) => {
		const at = `${field.api}[${index}]`;
		if (!isObject(item)) {
			issues.push({ path: at, message: 'must be an object' });
			bad = true;
			return;
		}
		const formEntry: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(item)) {
			const formKey = keys[key];
			if (!formKey) {
				issues.push({ path: `${at}.${key}`, message: `is not a field of ${entry} entries` });
				bad = true;
				continue;
			}
			if (value === null || value === undefined) continue;
			if (formKey !== 'amount' && typeof value !== 'string') {
				issues.push({ path: `${at}.${key}`, message: 'must be text' });
				bad = true;
				continue;
			}
			formEntry[formKey] = value;
		}
		converted.push(formEntry);
	});
	return bad ? undefined : { [entry]: converted };
}

/** `['prices', 'price', 0, 'amount']` → `prices_data[0].amount`; `additionalFields.x` → its API name. */
function apiPath(path: ReadonlyArray<PropertyKey>): string {
	const parts = path.filter((p) => p !== 'top' && p !== 'additionalFields');
	const field = BY_PARAM.get(String(parts[0]));
	if (!field) return parts.map(String).join('.');
	let out = field.api;
	const rest = formProperty(field).type === 'fixedCollection' ? parts.slice(2) : parts.slice(1);
	const keys = ENTRY_KEYS[field.api]?.keys ?? {};
	const back = Object.fromEntries(Object.entries(keys).map(([api, form]) => [form, api]));
	for (const part of rest) {
		out += typeof part === 'number' ? `[${part}]` : `.${back[String(part)] ?? String(part)}`;
	}
	return out;
}

function unique(issues: CourseJsonIssue[]): CourseJsonIssue[] {
	const seen = new Set<string>();
	return issues.filter((i) => (seen.has(i.path) ? false : (seen.add(i.path), true)));
}

/** `prices_data[0].amount: must be greater than 0` — one line per field. */
export function describeCourseIssues(issues: CourseJsonIssue[]): string[] {
	return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
}
