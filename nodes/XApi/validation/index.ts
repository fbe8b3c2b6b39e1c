/** Strict xAPI 1.0.3 validation: every problem at once, each naming its property. */
import { statementSchema, type Statement } from './schemas';

export type { Statement };

export type ValidationIssue = { path: string; message: string };

const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["context", "contextActivities", "parent", 0, "id"]` → `context.contextActivities.parent[0].id`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
	let text = '';
	for (const segment of path) {
		if (typeof segment === 'number') text += `[${segment}]`;
		else if (PLAIN_NAME.test(String(segment)))
			text += text === '' ? String(segment) : `.${String(segment)}`;
		else text += `[${JSON.stringify(String(segment))}]`;
	}
	return text === '' ? 'statement' : text;
}

export function validateStatement(
	statement: unknown,
): { ok: true; statement: Statement } | { ok: false; issues: ValidationIssue[] } {
	const result = statementSchema.safeParse(statement);
	if (result.success) return { ok: true, statement: statement as Statement };
	const issues = result.error.issues.map(({ path, message }) => ({
		path: formatPath(path),
		message,
	}));
	return { ok: false, issues };
}

/** One readable line, e.g. `result.duration: "P4W1D" is not an ISO 8601 duration (…); actor: …`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
	const shown = issues.slice(0, 10).map((issue) => `${issue.path}: ${issue.message}`);
	const hidden = issues.length - shown.length;
	if (hidden > 0) shown.push(`and ${hidden} more problem${hidden === 1 ? '' : 's'}`);
	return shown.join('; ');
}
