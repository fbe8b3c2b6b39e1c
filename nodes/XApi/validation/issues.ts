/** Turns findings into messages that name the property and say in plain words what is wrong. */
import { caseHint, describeValue, KIND_NAMES, listOf, quote, wrongKind } from './describe';
import type { Finding, PathSegment } from './schema';
import { PROPERTY_NAMES } from './statementSchema';

export interface ValidationIssue {
	/** Where the problem is, relative to the statement, e.g. `context.contextActivities.parent[0].id`. */
	path: string;
	message: string;
}

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

function toValidationIssues(finding: Finding): ValidationIssue[] {
	switch (finding.code) {
		case 'unrecognized_keys':
			return finding.keys.map((key) => ({
				path: formatPath([...finding.path, key]),
				message: unknownPropertyMessage(key),
			}));
		case 'invalid_type':
			return [
				{
					path: formatPath(finding.path),
					message: wrongTypeMessage(finding.expected, finding.value),
				},
			];
		case 'invalid_literal':
			return [
				{
					path: formatPath(finding.path),
					message: allowedValueMessage(finding.value, [finding.expected]),
				},
			];
		case 'custom':
			// The validator's own checks already word their message for people.
			return [{ path: formatPath(finding.path), message: finding.message }];
	}
}

/** One issue per problem, in the order found, each reported once. */
export function toIssues(findings: readonly Finding[]): ValidationIssue[] {
	const seen = new Set<string>();
	const issues: ValidationIssue[] = [];
	for (const finding of findings) {
		for (const issue of toValidationIssues(finding)) {
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
