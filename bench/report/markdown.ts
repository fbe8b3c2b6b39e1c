import { describeMachine } from '../lib/machine';
import { checkRows, markdownTable } from '../lib/table';
import type { Row } from '../lib/table';
import type { ResultEntry, ResultsFile } from './results';

/** Sections in this order; anything else after them. */
const SECTION_ORDER = ['upsert', 'wait', 'xapi', 'overhead', 'soak'];

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

function orderedEntries(results: ResultsFile): ResultEntry[] {
	const names = Object.keys(results.entries).sort((a, b) => {
		const rank = (name: string) =>
			SECTION_ORDER.includes(name) ? SECTION_ORDER.indexOf(name) : SECTION_ORDER.length;
		return rank(a) - rank(b) || a.localeCompare(b);
	});
	return names.map((name) => results.entries[name]);
}

export function resultsMarkdown(results: ResultsFile): string {
	const entries = orderedEntries(results);
	const summary: Row[] = entries.flatMap((entry) =>
		checkRows(entry.outcome.checks).map((row): Row => ({ section: entry.name, ...row })),
	);
	const misses = summary.filter((row) => row.result === 'MISS');
	return [
		'# Benchmark and soak results',
		'',
		'Generated from `bench/results.json` by `bench/run.ts` (`npm run bench`) and `bench/soak.ts` (`npm run soak`); do not edit by hand. Each section names the command, date and machine of its own last run. Figures are ratios against baselines measured in the same run where possible: absolute times depend on the machine and on whatever else it was doing (the load average at the start is given).',
		'',
		'![Achieved throughput vs the ceiling](throughput.svg)',
		'',
		'## Targets',
		'',
		misses.length === 0
			? 'Every target was met.'
			: `${misses.length} of ${summary.length} targets missed: see the notes under each section.`,
		'',
		markdownTable(summary),
		'',
		...entries.map((entry) => `${section(entry)}\n`),
	].join('\n');
}
