/** Turns zod's issues into messages that name the property and say in plain words what is wrong. */
import type { ZodIssue } from 'zod';

import {
	caseHint,
	describeValue,
	isPlainObject,
	KIND_NAMES,
	listOf,
	quote,
	wrongKind,
} from './describe';
import { PROPERTY_NAMES } from './statementSchema';

export interface ValidationIssue {
	/** Where the problem is, relative to the statement, e.g. `context.contextActivities.parent[0].id`. */
	path: string;
	message: string;
}

type PathSegment = string | number;

const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["context", "contextActivities", "parent", 0, "id"]` → `context.contextActivities.parent[0].id`. */
export function formatPath(path: readonly PathSegment[]): string {
	let text = '';
	for (const segment of path) {
		if (typeof segment === 'number') text += `[${segment}]`;
		else if (PLAIN_NAME.test(segment)) text += text === '' ? segment : `.${segment}`;
		else text += `[${JSON.stringify(segment)}]`;
	}
	return text === '' ? 'statement' : text;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
	let value = root;
	for (const segment of path) {
		if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
		else if (isPlainObject(value) && typeof segment === 'string') value = value[segment];
		else return undefined;
	}
	return value;
}

const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;

function wrongTypeMessage(expected: string, value: unknown): string {
	const message = wrongKind(KIND_NAMES[expected] ?? expected, value);
	if (expected === 'number' && typeof value === 'string' && NUMBER_TEXT.test(value)) {
		return `${message} (write the number without quotes)`;
	}
	if (expected === 'boolean' && (value === 'true' || value === 'false')) {
		return `${message} (write ${value} without quotes)`;
	}
	return message;
}

function unknownPropertyMessage(key: string): string {
	if (PROPERTY_NAMES.includes(key)) return 'is not allowed here';
	const hint = caseHint(key, PROPERTY_NAMES);
	if (hint)
		return `is not an xAPI property: property names are case sensitive, did you mean "${hint}"?`;
	return 'is not an xAPI property; remove it (xAPI allows no extra properties: put custom data in "extensions")';
}

function allowedValueMessage(value: unknown, allowed: readonly string[]): string {
	if (value === undefined) return `is required and must be ${listOf(allowed)}`;
	const hint = caseHint(value, allowed);
	if (hint)
		return `${quote(String(value))} is not allowed: values are case sensitive, write "${hint}"`;
	return `must be ${listOf(allowed)}, but is ${describeValue(value)}`;
}

function toValidationIssues(issue: ZodIssue, input: unknown): ValidationIssue[] {
	switch (issue.code) {
		case 'unrecognized_keys':
			return issue.keys.map((key) => ({
				path: formatPath([...issue.path, key]),
				message: unknownPropertyMessage(key),
			}));
		case 'invalid_type':
			return [
				{
					path: formatPath(issue.path),
					message: wrongTypeMessage(issue.expected, valueAt(input, issue.path)),
				},
			];
		case 'invalid_literal':
			return [
				{
					path: formatPath(issue.path),
					message: allowedValueMessage(valueAt(input, issue.path), [String(issue.expected)]),
				},
			];
		case 'invalid_enum_value':
			return [
				{
					path: formatPath(issue.path),
					message: allowedValueMessage(valueAt(input, issue.path), issue.options.map(String)),
				},
			];
		default:
			// Issues raised by this validator's own checks already carry a plain-words message.
			return [{ path: formatPath(issue.path), message: issue.message }];
	}
}

export function toIssues(zodIssues: readonly ZodIssue[], input: unknown): ValidationIssue[] {
	const seen = new Set<string>();
	const issues: ValidationIssue[] = [];
	for (const zodIssue of zodIssues) {
		for (const issue of toValidationIssues(zodIssue, input)) {
			const key = `${issue.path}\u0000${issue.message}`;
			if (seen.has(key)) continue;
			seen.add(key);
			issues.push(issue);
		}
	}
	return issues;
}

const MAX_ISSUES_IN_LINE = 10;

/** One readable line, e.g. `result.duration: "P4W1D" is not an ISO 8601 duration (…); actor: …`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
	const shown = issues
		.slice(0, MAX_ISSUES_IN_LINE)
		.map((issue) => `${issue.path}: ${issue.message}`);
	const hidden = issues.length - shown.length;
	if (hidden > 0) shown.push(`and ${hidden} more problem${hidden === 1 ? '' : 's'}`);
	return shown.join('; ');
}
