/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * The docs checks, each a function from its input to a list of problems (empty: all is well), so
 * that a test can feed it the real files and another a broken copy. docs.test.ts runs them.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import type { Template } from './messages';
import { EXPLAINED, explain } from './messages';
import { figuresOf, headingsOf, linksOf, plainInline, ROOT, sectionOf, tablesOf } from './markdown';

export const REPOSITORY = 'https://github.com/learning-platform-n8n/n8n-nodes-learning-platform';

/** A file of the repository, by its path from the root: real, or a test's stand-in. */
export type ReadFile = (relative: string) => string | undefined;

export const readRepoFile: ReadFile = (relative) => {
	const file = path.join(ROOT, relative);
	if (!fs.existsSync(file)) return undefined;
	return fs.statSync(file).isDirectory() ? '' : fs.readFileSync(file, 'utf8');
};

/** A link to this repository on GitHub, as a path from its root, or undefined for another site. */
function repositoryPath(url: string): { file: string; anchor?: string } | undefined {
	if (!url.startsWith(REPOSITORY)) return undefined;
	const [rest, anchor] = url.slice(REPOSITORY.length).split('#');
	const blob = /^\/(?:blob|tree)\/main\/(.+)$/.exec(rest);
	if (rest === '' || rest === '/') return { file: 'README.md', anchor };
	return blob ? { file: decodeURIComponent(blob[1]), anchor } : { file: `?${rest}`, anchor };
}

/** Whether `anchor` is a heading of the Markdown file (or the file exists, with no anchor). */
function landing(file: string, anchor: string | undefined, read: ReadFile): string | undefined {
	const text = read(file);
	if (text === undefined) return `${file} does not exist`;
	if (!anchor) return undefined;
	if (!file.endsWith('.md')) return `#${anchor} points into ${file}, which has no headings`;
	const anchors = headingsOf(text).map((heading) => heading.anchor);
	return anchors.includes(anchor) ? undefined : `${file} has no heading #${anchor}`;
}

/** Relative links and anchors of one Markdown file (and links to this repository's GitHub pages). */
export function linkProblems(file: string, read: ReadFile = readRepoFile): string[] {
	const text = read(file) ?? '';
	const problems: string[] = [];
	for (const link of linksOf(text)) {
		let target: { file: string; anchor?: string } | undefined;
		if (/^[a-z][a-z+.-]*:/i.test(link.target)) {
			target = repositoryPath(link.target);
			if (!target) continue;
		} else {
			const [relative, anchor] = link.target.split('#');
			const resolved = relative
				? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(relative)))
				: file;
			target = { file: resolved.replace(/\/$/, ''), anchor };
		}
		const problem = target.file.startsWith('..')
			? `${target.file} is outside the repository`
			: landing(target.file, target.anchor, read);
		if (problem) problems.push(`${file}:${link.line}: ${link.target}: ${problem}`);
	}
	return problems;
}

/** The editor's Docs links: each must be this repository's page and land on a heading. */
export function editorLinkProblems(urls: string[], read: ReadFile = readRepoFile): string[] {
	return urls.flatMap((url) => {
		const target = repositoryPath(url);
		if (!target) return [`${url}: not a page of ${REPOSITORY}`];
		const problem = landing(target.file, target.anchor, read);
		return problem ? [`${url}: ${problem}`] : [];
	});
}

export interface Operation {
	node: string;
	/** Empty for a node without resources (the trigger): its row names the node alone. */
	resource: string;
	operation: string;
}

const named = ({ node, resource, operation }: Operation) => `${node} → ${resource} → ${operation}`;

/** The operations the node descriptions offer, as the editor names them. */
export function operationsOf(nodes: INodeTypeDescription[]): Operation[] {
	return nodes.flatMap((node) => {
		const resource = node.properties.find((property) => property.name === 'resource');
		if (!resource) return [{ node: node.displayName, resource: '', operation: '' }];
		return (resource.options as INodePropertyOptions[]).flatMap((option) => {
			const operation = node.properties.find(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(option.value),
			);
			return ((operation?.options ?? []) as INodePropertyOptions[]).map((op) => ({
				node: node.displayName,
				resource: option.name,
				operation: op.name,
			}));
		});
	});
}

/** The README's Operations table (an empty Node or Resource cell repeats the row above). */
export function operationsTable(readme: string): Operation[] {
	const table = tablesOf(sectionOf(readme, 'operations')).find(
		(candidate) => candidate.header[0] === 'Node' && candidate.header[2] === 'Operation',
	);
	let node = '';
	let resource = '';
	return (table?.rows ?? []).map(([n, r, o]) => {
		if (n) [node, resource] = [plainInline(n), plainInline(r)];
		else if (r) resource = plainInline(r);
		return { node, resource, operation: plainInline(o) };
	});
}

/** Operations missing from the table, and rows that name none (a trigger's row names its node). */
export function operationTableProblems(readme: string, nodes: INodeTypeDescription[]): string[] {
	const rows = operationsTable(readme);
	const offered = operationsOf(nodes);
	const same = (row: Operation, op: Operation) =>
		row.node === op.node &&
		row.resource === op.resource &&
		(op.resource === '' || row.operation === op.operation);
	return [
		...offered
			.filter((op) => !rows.some((row) => same(row, op)))
			.map((op) => `missing from the README's Operations: ${named(op)}`),
		...rows
			.filter((row) => !offered.some((op) => same(row, op)))
			.map((row) => `no such operation: ${named(row)}`),
	];
}

export interface Parameters {
	node: Record<string, INodeTypeDescription>;
	credential: Record<string, { properties: INodeProperties[] }>;
}

/** A property's display conditions met? Keys the table does not name are free, except `@…` ones. */
function shown(property: INodeProperties, conditions: Record<string, string>): boolean {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(([key, values]) => {
		const name = key.replace(/^\//, '');
		if (!(name in conditions)) return !name.startsWith('@');
		return (values as unknown[]).some((value) => String(value) === conditions[name]);
	});
}

function visible(
	properties: INodeProperties[],
	conditions: Record<string, string>,
): INodeProperties[] {
	return properties
		.filter((property) => shown(property, conditions))
		.flatMap((property) => {
			if (property.type === 'collection') {
				return [property, ...visible(property.options as INodeProperties[], conditions)];
			}
			return [property];
		});
}

/** The code's default as a docs table writes it, compared with the table's cell. */
function sameDefault(property: INodeProperties, cell: string): boolean {
	const text = plainInline(cell).trim();
	const code =
		typeof property.default === 'string' ? property.default.replace(/^=/, '') : property.default;
	if (typeof code === 'boolean')
		return /^(on|true)\b/i.test(text) === code && /^(on|off|true|false)\b/i.test(text);
	if (typeof code === 'number') {
		const number = /^-?[\d,]*\.?\d+/.exec(text.replace(/,/g, ''));
		return number !== null && Number(number[0]) === code;
	}
	if (typeof code !== 'string') return false;
	if (code === '') return /^(empty|none|—)$/i.test(text);
	const spanned = /`([^`]*)`/.exec(cell)?.[1];
	if (spanned === code || text === code) return true;
	const option = (property.options as INodePropertyOptions[] | undefined)?.find(
		(candidate) => 'value' in candidate && candidate.value === code,
	);
	return option !== undefined && option.name.toLowerCase() === text.toLowerCase();
}

/**
 * Tables preceded by `<!-- defaults: <node> key=value … -->` or `<!-- defaults: credential
 * <name> key=value … -->`: each row's first cell is a parameter's display name, and its Default
 * cell must be the code's default for the parameter shown under those conditions.
 */
export function defaultProblems(file: string, text: string, parameters: Parameters): string[] {
	const problems: string[] = [];
	for (const table of tablesOf(text)) {
		const note = /^defaults:\s*(.*)$/.exec(table.note ?? '');
		if (!note) continue;
		const words = note[1].trim().split(/\s+/);
		const isCredential = words[0] === 'credential';
		const target = isCredential ? words[1] : words[0];
		const conditions = Object.fromEntries(
			words.slice(isCredential ? 2 : 1).map((word) => word.split('=') as [string, string]),
		);
		const properties = isCredential
			? parameters.credential[target]?.properties
			: parameters.node[target]?.properties;
		const where = `${file}:${table.line}`;
		if (!properties) {
			problems.push(`${where}: no node or credential "${target}"`);
			continue;
		}
		const column = table.header.findIndex((cell) => cell === 'Default');
		if (column < 0) {
			problems.push(`${where}: a defaults table needs a "Default" column`);
			continue;
		}
		const candidates = visible(properties, conditions);
		for (const row of table.rows) {
			const name = plainInline(row[0]).trim();
			const matching = candidates.filter((property) => property.displayName === name);
			if (matching.length === 0) {
				problems.push(`${where}: "${name}" is not a parameter of ${note[1].trim()}`);
				continue;
			}
			if (!matching.some((property) => sameDefault(property, row[column] ?? ''))) {
				const code = JSON.stringify(matching[0].default);
				problems.push(
					`${where}: "${name}" is documented as ${row[column]}, the code's default is ${code}`,
				);
			}
		}
	}
	return problems;
}

/** Every code span in the first column of a "What n8n shows" table: messages the code must build. */
export function quotedMessages(text: string): string[] {
	return tablesOf(text)
		.filter((table) => table.header[0] === 'What n8n shows')
		.flatMap((table) =>
			table.rows.flatMap((row) => [...row[0].matchAll(/`([^`]+)`/g)].map((m) => m[1])),
		);
}

export function messageProblems(text: string, templates: Template[]): string[] {
	return quotedMessages(text).flatMap((quote) => {
		const { share } = explain(quote, templates);
		return share >= EXPLAINED
			? []
			: [`not a message the code builds (${Math.round(share * 100)} % of it found): ${quote}`];
	});
}

/** The failure causes the code declares (`cause: '…'` in an object, not in the type). */
export function declaredCauses(sources: string[]): string[] {
	const causes = new Set<string>();
	for (const source of sources) {
		for (const match of source.matchAll(/cause: '([a-z-]+)'(?!\s*\|)/g)) causes.add(match[1]);
	}
	return [...causes].sort();
}

export function causeProblems(page: string, causes: string[]): string[] {
	return causes
		.filter((cause) => !page.includes(`\`${cause}\``))
		.map((cause) => `the troubleshooting page does not name the declared cause ${cause}`);
}

/** `x.y.z` versions that are not n8n's: xAPI's, zod's, Node's, this package's own (after `@`). */
const OTHER_VERSION = /(xAPI|zod|Node(\.js)?|npm|@)\s*v?$/i;

/** The n8n versions a text names by patch number, with where. */
export function patchVersions(text: string): Array<{ version: string; at: number }> {
	const found: Array<{ version: string; at: number }> = [];
	for (const match of text.matchAll(/(?<![\w.])v?(\d+\.\d+\.\d+)(?![\w.]*\d)/g)) {
		const before = text.slice(Math.max(0, match.index! - 12), match.index!);
		if (!OTHER_VERSION.test(before)) found.push({ version: match[1], at: match.index! });
	}
	return found;
}

/** Versions come from one list; the README names each at most once, and at most two. */
export function versionProblems(
	readme: string,
	pages: Array<[string, string]>,
	tested: string[],
): string[] {
	const problems: string[] = [];
	const inReadme = patchVersions(readme).map((found) => found.version);
	for (const version of new Set(inReadme)) {
		if (!tested.includes(version))
			problems.push(
				`README.md names n8n ${version}, which is not a tested version (${tested.join(', ')})`,
			);
		const times = inReadme.filter((v) => v === version).length;
		if (times > 1) problems.push(`README.md names n8n ${version} ${times} times`);
	}
	if (inReadme.length > 2) problems.push(`README.md names ${inReadme.length} n8n patch versions`);
	const compatibility = sectionOf(readme, 'compatibility');
	for (const version of tested) {
		if (!compatibility.includes(version))
			problems.push(`README.md's Compatibility does not name the tested n8n ${version}`);
	}
	for (const [file, text] of pages) {
		for (const { version } of patchVersions(text)) {
			if (!tested.includes(version))
				problems.push(`${file} names n8n ${version}, which is not a tested version`);
		}
	}
	return problems;
}

/** The README's sections, in the order issue 53 gives. */
export const README_SECTIONS = [
	'Installation',
	'Credentials',
	'Operations',
	'Quick start',
	'Example workflows',
	'Use from an AI agent',
	'Compatibility',
	'Troubleshooting',
	'Limits and security',
	'Development',
	'License',
];

export function readmeShapeProblems(text: string): string[] {
	const f = figuresOf('README.md', text);
	const problems: string[] = [];
	if (f.lines > 300) problems.push(`README.md has ${f.lines} lines (at most 300)`);
	if (f.words > 3500) problems.push(`README.md has ${f.words} words (at most 3,500)`);
	if (f.averageSentence > 22)
		problems.push(`README.md's sentences average ${f.averageSentence} words (at most 22)`);
	if (f.over40 > 5) problems.push(`README.md has ${f.over40} sentences over 40 words (at most 5)`);
	const titles = f.sections.map((section) => section.title);
	if (titles.join(' / ') !== README_SECTIONS.join(' / ')) {
		problems.push(
			`README.md's sections are ${titles.join(' / ')}, not ${README_SECTIONS.join(' / ')}`,
		);
	}
	for (const [title, by] of [
		['Installation', 60],
		['Credentials', 110],
		['Operations', 170],
	] as const) {
		const line = f.sections.find((section) => section.title === title)?.line ?? Infinity;
		if (line > by) problems.push(`README.md's ${title} starts at line ${line} (by line ${by})`);
	}
	return problems;
}

export function pageShapeProblems(file: string, text: string): string[] {
	const f = figuresOf(file, text);
	const problems: string[] = [];
	if (f.lines > 400) problems.push(`${file} has ${f.lines} lines (at most 400)`);
	if (f.averageSentence > 24)
		problems.push(`${file}'s sentences average ${f.averageSentence} words (at most 24)`);
	return problems;
}

/** What user pages leave to ARCHITECTURE.md and bench/RESULTS.md: file names, algorithms, ratios. */
const MECHANICS: Array<[RegExp, string]> = [
	[/(?<![\w./~-])(?:nodes|credentials|harness|sandbox)\/[\w/.-]*\.ts\b/, 'a source file name'],
	[/\b[\w-]+\.(?:ts|mjs|cjs)\b/, 'a source file name'],
	[
		/\b(?:NFKC|NFC|NFD|SHA-?1|SHA-?256|md5|UUID version|CUBIC|full-jitter|V8)\b/i,
		'an algorithm name',
	],
	[/\b\d+-character (?:hash|fingerprint)/i, 'a hash width'],
	[/(?<![\d.])0\.\d{2,}\b(?! s)/, 'a benchmark ratio'],
	[/\b\d+(?:\.\d+)?\s?×(?!\s?\d)/, 'a benchmark ratio'],
];

export function mechanicsProblems(file: string, text: string): string[] {
	const problems: string[] = [];
	text.split('\n').forEach((line, index) => {
		if (/^\s*(```|<!--)/.test(line) || /^https?:/.test(line.trim())) return;
		const prose = line.replace(/\]\([^)]*\)/g, ']').replace(/https?:\/\/\S+/g, '');
		const kinds = new Set<string>();
		for (const [pattern, what] of MECHANICS) {
			const match = pattern.exec(prose);
			if (match && !kinds.has(what))
				problems.push(`${file}:${index + 1}: ${what} in a user page: ${match[0]}`);
			if (match) kinds.add(what);
		}
	});
	return problems;
}
