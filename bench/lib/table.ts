/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import type { TargetCheck } from './stats';

export type Row = Record<string, string | number>;

/** A plain-text table for the console. */
export function textTable(rows: Row[]): string {
	if (rows.length === 0) return '(no rows)';
	const columns = Object.keys(rows[0]);
	const cell = (row: Row, column: string) => String(row[column] ?? '');
	const widths = columns.map((column) =>
		Math.max(column.length, ...rows.map((row) => cell(row, column).length)),
	);
	const line = (values: string[]) => values.map((value, i) => value.padEnd(widths[i])).join('  ');
	return [
		line(columns),
		line(widths.map((w) => '-'.repeat(w))),
		...rows.map((row) => line(columns.map((c) => cell(row, c)))),
	].join('\n');
}

/** The same rows as a Markdown table. */
export function markdownTable(rows: Row[]): string {
	if (rows.length === 0) return '_no rows_';
	const columns = Object.keys(rows[0]);
	const escape = (value: string | number) => String(value ?? '').replace(/\|/g, '\\|');
	return [
		`| ${columns.map(escape).join(' | ')} |`,
		`| ${columns.map(() => '---').join(' | ')} |`,
		...rows.map((row) => `| ${columns.map((c) => escape(row[c])).join(' | ')} |`),
	].join('\n');
}

export function checkRows(checks: TargetCheck[]): Row[] {
	return checks.map((c) => ({
		result: c.pass ? 'PASS' : 'MISS',
		what: c.what,
		target: c.target,
		measured: c.value,
	}));
}

export function printSection(title: string, rows: Row[], checks: TargetCheck[] = []): void {
	console.log(`\n== ${title} ==\n${textTable(rows)}`);
	if (checks.length > 0) console.log(`\n${textTable(checkRows(checks))}`);
}
