/**
 * Strict validation of one xAPI 1.0.3 statement as it would be POSTed to a record store
 * (xAPI-Data 2.2 to 2.4 and 4.x): every rule the specification makes an LRS enforce, and no
 * property the specification does not define. The schemas are built once, when this module loads.
 */
import { toIssues, type ValidationIssue } from './issues';
import { findingsOf } from './schema';
import { statementSchema } from './statementSchema';
import type { Statement } from './types';

export type StatementValidation =
	| { ok: true; statement: Statement }
	| { ok: false; issues: ValidationIssue[] };

export function validateStatement(statement: unknown): StatementValidation {
	const findings = findingsOf(statementSchema, statement);
	// A valid statement is returned as given: the schemas never copy or change what they check.
	if (findings.length === 0) return { ok: true, statement: statement as Statement };
	return { ok: false, issues: toIssues(findings) };
}
