/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import type { TargetCheck } from './stats';

export type Row = Record<string, string | number>;

/** Consecutive rows with the same columns: one table each (a merged benchmark's rows differ). */
function groups(rows: Row[]): Row[][] {
	const columnsOf = (row: Row) => Object.keys(row).join('\u0000');
	return rows.reduce<Row[][]>((all, row) => {
		const last = all[all.length - 1];
		if (last && columnsOf(last[0]) === columnsOf(row)) last.push(row);
		else all.push([row]);
		return all;
	}, []);
}

const cell = (row: Row, column: string) => String(row[column] ?? '');

/** A plain-text table for the console. */
export function textTable(rows: Row[]): string {
	if (rows.length === 0) return '(no rows)';
	return groups(rows)
		.map((group) => {
			const columns = Object.keys(group[0]);
			const widths = columns.map((column) =>
				Math.max(column.length, ...group.map((row) => cell(row, column).length)),
			);
			const line = (values: string[]) =>
				values.map((value, i) => value.padEnd(widths[i])).join('  ');
			return [
				line(columns),
				line(widths.map((w) => '-'.repeat(w))),
				...group.map((row) => line(columns.map((c) => cell(row, c)))),
			].join('\n');
		})
		.join('\n\n');
}

/** The same rows as Markdown tables. */
export function markdownTable(rows: Row[]): string {
	if (rows.length === 0) return '_no rows_';
	const escape = (value: string) => value.replace(/\|/g, '\\|');
	return groups(rows)
		.map((group) => {
			const columns = Object.keys(group[0]);
			return [
				`| ${columns.map(escape).join(' | ')} |`,
				`| ${columns.map(() => '---').join(' | ')} |`,
				...group.map((row) => `| ${columns.map((c) => escape(cell(row, c))).join(' | ')} |`),
			].join('\n');
		})
		.join('\n\n');
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
