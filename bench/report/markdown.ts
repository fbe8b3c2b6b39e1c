import { BENCHMARKS } from '../benchmarks';
import { describeMachine } from '../lib/machine';
import { checkRows, markdownTable } from '../lib/table';
import type { ResultEntry, ResultsFile } from './results';

function section(entry: ResultEntry): string {
	const { outcome } = entry;
	const lines = [
		`## ${outcome.title}`,
		'',
		`- Command: \`${entry.command}\``,
		`- Ran: ${entry.ranAt}, ${entry.durationSec} s, package from \`${entry.source}\``,
		`- Machine: ${describeMachine(entry.machine)}`,
		'',
		outcome.method,
		'',
		markdownTable(outcome.rows),
	];
	if (outcome.checks.length > 0) lines.push('', markdownTable(checkRows(outcome.checks)));
	if (outcome.notes && outcome.notes.length > 0)
		lines.push('', ...outcome.notes.map((note) => `- ${note}`));
	return lines.join('\n');
}

/** Sections in the order of bench/benchmarks.ts. */
function orderedEntries(results: ResultsFile): ResultEntry[] {
	return BENCHMARKS.flatMap((b) => results.entries[b.name] ?? []);
}

export function resultsMarkdown(results: ResultsFile): string {
	const entries = orderedEntries(results);
	const checks = entries.flatMap((entry) =>
		entry.outcome.checks.map((check) => ({ entry, check })),
	);
	const misses = checks.filter(({ check }) => !check.pass);
	return [
		'# Benchmark results',
		'',
		'Generated from `bench/results.json` (the latest run of each benchmark of `bench/benchmarks.ts`) by `npm run bench -- <name>`; do not edit by hand. Each section names the command, date and machine of its own last run. Figures are ratios against baselines measured in the same run where possible: absolute times depend on the machine and on whatever else it was doing (the load average at the start is given).',
		'',
		misses.length === 0
			? `Every one of the ${checks.length} targets was met.`
			: `${checks.length - misses.length} of ${checks.length} targets met; missed (see the notes under each section):`,
		'',
		...misses.map(
			({ entry, check }) =>
				`- ${entry.name}: ${check.what}: ${check.value} (target ${check.target})`,
		),
		'',
		...entries.map((entry) => `${section(entry)}\n`),
	].join('\n');
}
