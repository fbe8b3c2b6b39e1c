/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Just enough Markdown for the docs tests: headings and their GitHub anchors, links, tables, and
 * the figures issue 53 counts (lines, words of prose, sentence lengths, where each section starts).
 * Run it to print the figures: `npx tsx test/tooling/docs/markdown.ts README.md docs/*.md`.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');

export interface Line {
	/** 1-based, as an editor shows it. */
	number: number;
	text: string;
	kind: 'code' | 'comment' | 'blank' | 'heading' | 'table' | 'list' | 'quote' | 'text';
}

/** Each line with what it is: inside a fenced block or an HTML comment, a heading, a table row… */
export function linesOf(markdown: string): Line[] {
	const result: Line[] = [];
	let fence: string | undefined;
	let inComment = false;
	markdown.split('\n').forEach((text, index) => {
		const number = index + 1;
		const trimmed = text.trim();
		if (fence) {
			if (trimmed.startsWith(fence)) fence = undefined;
			result.push({ number, text, kind: 'code' });
			return;
		}
		if (inComment) {
			if (trimmed.includes('-->')) inComment = false;
			result.push({ number, text, kind: 'comment' });
			return;
		}
		const opening = /^(```+|~~~+)/.exec(trimmed);
		if (opening) {
			fence = opening[1];
			result.push({ number, text, kind: 'code' });
			return;
		}
		if (trimmed.startsWith('<!--')) {
			inComment = !trimmed.includes('-->');
			result.push({ number, text, kind: 'comment' });
			return;
		}
		const kind: Line['kind'] =
			trimmed === ''
				? 'blank'
				: /^#{1,6}\s/.test(trimmed)
					? 'heading'
					: trimmed.startsWith('|')
						? 'table'
						: /^([-*+]|\d+\.)\s/.test(trimmed)
							? 'list'
							: trimmed.startsWith('>')
								? 'quote'
								: 'text';
		result.push({ number, text, kind });
	});
	return result;
}

/** Inline Markdown as a reader sees it: links and images by their text, no emphasis or code marks. */
export function plainInline(text: string): string {
	return text
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/`([^`]*)`/g, '$1')
		.replace(/(\*\*|__)(.*?)\1/g, '$2')
		.replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,;:!?]|$)/g, '$1$2');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
	return plainInline(heading)
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

export interface Heading {
	level: number;
	text: string;
	line: number;
	anchor: string;
}

/** Every heading with the anchor GitHub gives it (a repeated one gets -1, -2, …). */
export function headingsOf(markdown: string): Heading[] {
	const seen = new Map<string, number>();
	return linesOf(markdown)
		.filter((line) => line.kind === 'heading')
		.map((line) => {
			const [, hashes, text] = /^\s*(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line.text)!;
			const base = slugOf(text);
			const count = seen.get(base) ?? 0;
			seen.set(base, count + 1);
			return {
				level: hashes.length,
				text,
				line: line.number,
				anchor: count ? `${base}-${count}` : base,
			};
		});
}

export interface Link {
	target: string;
	line: number;
	image: boolean;
}

/** Inline links and images outside code: `[text](target)`, `![alt](target)`. */
export function linksOf(markdown: string): Link[] {
	const links: Link[] = [];
	for (const line of linesOf(markdown)) {
		if (line.kind === 'code' || line.kind === 'comment') continue;
		const withoutCode = line.text.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
		for (const match of withoutCode.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
			links.push({ target: match[2], line: line.number, image: match[1] === '!' });
		}
	}
	return links;
}

export interface Table {
	/** The line of its header row. */
	line: number;
	header: string[];
	rows: string[][];
	/** The HTML comment just above it, if any (`<!-- … -->`, at most one blank line between). */
	note?: string;
}

export function cellsOf(row: string): string[] {
	const cells: string[] = [];
	let cell = '';
	let inCode = false;
	const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
	for (let i = 0; i < inner.length; i++) {
		const c = inner[i];
		if (c === '\\' && inner[i + 1] === '|') {
			cell += '|';
			i++;
		} else if (c === '`') {
			inCode = !inCode;
			cell += c;
		} else if (c === '|' && !inCode) {
			cells.push(cell.trim());
			cell = '';
		} else cell += c;
	}
	cells.push(cell.trim());
	return cells;
}

export function tablesOf(markdown: string): Table[] {
	const lines = linesOf(markdown);
	const tables: Table[] = [];
	for (let i = 0; i < lines.length; i++) {
		if (lines[i].kind !== 'table' || (i > 0 && lines[i - 1].kind === 'table')) continue;
		const block: Line[] = [];
		for (let j = i; j < lines.length && lines[j].kind === 'table'; j++) block.push(lines[j]);
		if (block.length < 2 || !/^\|?\s*:?-{3,}/.test(block[1].text.trim())) continue;
		let k = i - 1;
		if (k >= 0 && lines[k].kind === 'blank') k--;
		const note =
			k >= 0 && lines[k].kind === 'comment'
				? lines[k].text
						.trim()
						.replace(/^<!--\s*/, '')
						.replace(/\s*-->$/, '')
				: undefined;
		tables.push({
			line: block[0].number,
			header: cellsOf(block[0].text),
			rows: block.slice(2).map((row) => cellsOf(row.text)),
			note,
		});
	}
	return tables;
}

/** The text of a section: from its heading to the next heading of the same or a higher level. */
export function sectionOf(markdown: string, anchor: string): string {
	const headings = headingsOf(markdown);
	const start = headings.findIndex((heading) => heading.anchor === anchor);
	if (start < 0) throw new Error(`no section #${anchor}`);
	const end = headings.slice(start + 1).find((heading) => heading.level <= headings[start].level);
	const lines = markdown.split('\n');
	return lines.slice(headings[start].line - 1, end ? end.line - 1 : lines.length).join('\n');
}

const WORD = /[\p{L}\p{N}]/u;

export function wordsIn(text: string): number {
	return text.split(/\s+/).filter((token) => WORD.test(token)).length;
}

/** Paragraphs and list items, as plain text: where sentences are. */
function proseUnits(markdown: string): string[] {
	const units: string[] = [];
	let current: string[] = [];
	const flush = () => {
		if (current.length) units.push(plainInline(current.join(' ')));
		current = [];
	};
	for (const line of linesOf(markdown)) {
		if (line.kind === 'list') {
			flush();
			current.push(line.text.trim().replace(/^([-*+]|\d+\.)\s+/, ''));
		} else if (line.kind === 'text' || line.kind === 'quote') {
			current.push(line.text.trim().replace(/^>\s?/, ''));
		} else flush();
	}
	flush();
	return units.filter((unit) => WORD.test(unit));
}

/** Sentence ends: . ! ? (or a colon before a list) followed by a capital, a digit or a mark. */
export function sentencesOf(unit: string): string[] {
	return unit
		.replace(/\b(e\.g|i\.e|etc|vs|cf)\./g, '$1\u2024')
		.split(/(?<=[.!?])\s+(?=["'(\[*`]?[\p{Lu}\p{N}])/u)
		.map((sentence) => sentence.trim())
		.filter((sentence) => WORD.test(sentence));
}

export interface Figures {
	file: string;
	lines: number;
	/** Words outside code blocks and comments, tables included. */
	words: number;
	/** The same without tables and headings: running prose. */
	proseWords: number;
	sentences: number;
	averageSentence: number;
	over40: number;
	longest: number;
	/** Where each second-level section starts. */
	sections: Array<{ title: string; line: number }>;
}

export function figuresOf(file: string, markdown = fs.readFileSync(file, 'utf8')): Figures {
	const lines = linesOf(markdown);
	const visible = lines.filter((line) => line.kind !== 'code' && line.kind !== 'comment');
	const words = visible.reduce(
		(sum, line) =>
			sum +
			wordsIn(
				plainInline(
					line.text
						.replace(/^\s*#+\s/, '')
						.replace(/\|/g, ' ')
						.replace(/-{3,}/g, ''),
				),
			),
		0,
	);
	const units = proseUnits(markdown);
	const proseWords = units.reduce((sum, unit) => sum + wordsIn(unit), 0);
	const lengths = units.flatMap(sentencesOf).map(wordsIn);
	const total = lengths.reduce((sum, n) => sum + n, 0);
	return {
		file: path.relative(ROOT, path.resolve(file)),
		lines: markdown.endsWith('\n') ? lines.length - 1 : lines.length,
		words,
		proseWords,
		sentences: lengths.length,
		averageSentence: lengths.length ? Math.round((total / lengths.length) * 10) / 10 : 0,
		over40: lengths.filter((n) => n > 40).length,
		longest: Math.max(0, ...lengths),
		sections: headingsOf(markdown)
			.filter((heading) => heading.level === 2)
			.map((heading) => ({ title: plainInline(heading.text), line: heading.line })),
	};
}

if (require.main === module) {
	const files = process.argv.slice(2);
	for (const file of files.length ? files : ['README.md']) {
		const f = figuresOf(file);
		console.log(
			`${f.file}: ${f.lines} lines, ${f.words} words (${f.proseWords} in running prose), ` +
				`${f.sentences} sentences averaging ${f.averageSentence} words, ${f.over40} over 40 (longest ${f.longest})`,
		);
		if (files.length <= 1) for (const s of f.sections) console.log(`  line ${s.line}: ${s.title}`);
	}
}
