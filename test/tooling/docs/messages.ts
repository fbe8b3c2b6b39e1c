/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Whether a message quoted in the docs is one the code can build. The code's messages are the
 * string literals, template literals and `+` chains under nodes/ and credentials/, with each
 * `${…}` (or non-literal operand) as a hole. A quote is explained when a parse of it covers at
 * least 90 % of its letters with the code's literal text: a hole may hold free text (an ID, the
 * platform's own words) or, in turn, other pieces of the code's text (`words.removed` …), and in
 * the quote `…` stands for a part that varies. A piece of literal text counts only whole, so a
 * word that happens to occur inside a long description explains nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

import { ROOT } from './markdown';

const HOLE = '\u0000';
const ELLIPSIS = '…';

/** A message template: literal text with holes, kept as alternating chunks (holes between). */
export type Template = string[];

function filesUnder(folder: string): string[] {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(folder, entry.name);
		if (entry.isDirectory()) return filesUnder(file);
		return file.endsWith('.ts') ? [file] : [];
	});
}

/** The texts an expression can give: literal pieces and holes, a few variants at most. */
function variantsOf(node: ts.Expression, depth = 0): string[] {
	if (depth > 4) return [HOLE];
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
	if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) {
		return variantsOf(node.expression, depth);
	}
	if (ts.isTemplateExpression(node)) {
		let texts = [node.head.text];
		for (const span of node.templateSpans) {
			const inner = variantsOf(span.expression, depth + 1);
			texts = texts.flatMap((text) => inner.map((piece) => text + piece + span.literal.text));
			texts = [...new Set(texts)].slice(0, 16);
		}
		return texts;
	}
	if (ts.isConditionalExpression(node)) {
		return [...variantsOf(node.whenTrue, depth + 1), ...variantsOf(node.whenFalse, depth + 1)];
	}
	if (ts.isBinaryExpression(node)) {
		const op = node.operatorToken.kind;
		if (op === ts.SyntaxKind.PlusToken) {
			const left = variantsOf(node.left, depth + 1);
			const right = variantsOf(node.right, depth + 1);
			return left.flatMap((a) => right.map((b) => a + b)).slice(0, 16);
		}
		if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
			return [HOLE, ...variantsOf(node.right, depth + 1)];
		}
	}
	return [HOLE];
}

function isTextish(node: ts.Node): node is ts.Expression {
	return (
		ts.isStringLiteral(node) ||
		ts.isNoSubstitutionTemplateLiteral(node) ||
		ts.isTemplateExpression(node) ||
		(ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
	);
}

/** Chunks of literal text between holes; holes at either end dropped (a neighbour fills them). */
function templateOf(text: string): Template | undefined {
	const chunks = text
		.replace(/\s+/g, ' ')
		.split(new RegExp(`${HOLE}+`))
		.filter((chunk, index, all) => chunk !== '' || (index > 0 && index < all.length - 1));
	const trimmed = chunks.filter((chunk) => chunk.trim() !== '');
	return trimmed.length && /\p{L}/u.test(chunks.join('')) ? chunks.filter(Boolean) : undefined;
}

/** Every message template of the package's code. */
export function codeTemplates(folders = ['nodes', 'credentials']): Template[] {
	const seen = new Set<string>();
	const templates: Template[] = [];
	for (const file of folders.flatMap((folder) => filesUnder(path.join(ROOT, folder)))) {
		const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
		const visit = (node: ts.Node): void => {
			if (isTextish(node)) {
				for (const text of variantsOf(node)) {
					const template = templateOf(text);
					const key = template?.join(HOLE);
					if (template && key && !seen.has(key)) {
						seen.add(key);
						templates.push(template);
					}
				}
				// A `+` chain's operands and a template's spans are messages of their own too.
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return templates;
}

const normal = (text: string) =>
	text.replace(/\s+/g, ' ').replace(/[‘’]/g, "'").replace(/[“”]/g, '"').toLowerCase();

const isLetter = (c: string) => /\p{L}/u.test(c);
const lettersIn = (text: string) => [...text].filter(isLetter).length;

export interface Explanation {
	letters: number;
	covered: number;
	share: number;
}

/**
 * How much of the quote the code's text explains. Templates are matched whole, each chunk
 * exactly (ignoring case). At the top level a template may start at any of its chunks (the quote
 * begins in one of its holes), and only at the quote's two ends may a chunk be cut: the quote is
 * then a part of a longer message.
 */
export function explain(quote: string, templates: Template[]): Explanation {
	const q = normal(quote);
	const end = q.length;
	// A quote is often a part of a longer message: it may begin and end inside a template.
	const first = q.search(/\p{L}/u);
	const last = q.length - [...q].reverse().join('').search(/\p{L}/u);
	const stop = q.replace(/[…\s]+$/, '').length;
	const atStart = (pos: number) => pos <= first;
	const letters = [...q].filter((c) => c !== ELLIPSIS && isLetter(c)).length;
	// Only templates with a chunk in the quote can take part, or one the quote begins or ends in.
	const head = q.slice(first, first + 12);
	const tail = q.slice(Math.max(0, last - 12), last);
	const candidates = templates
		.map((t) => t.map(normal))
		.filter((chunks) =>
			chunks.some(
				(chunk) =>
					(lettersIn(chunk) >= 3 && q.includes(chunk.trim())) ||
					chunk.includes(head) ||
					chunk.includes(tail),
			),
		);
	const memo = new Map<string, number>();

	/** Best letters covered in q[from, to) by free characters and at most PIECES whole templates. */
	function cover(from: number, to: number, depth: number): number {
		const key = `${from},${to},${depth}`;
		const known = memo.get(key);
		if (known !== undefined) return known;
		// best[i][c]: the most letters of q[i, to) explained with at most c templates.
		const best = Array.from({ length: to + 1 }, () => new Array<number>(PIECES + 1).fill(0));
		for (let i = to - 1; i >= from; i--) {
			best[i] = [...best[i + 1]];
			if (depth === 0) continue;
			for (const chunks of candidates) {
				for (const [stop, score] of matches(chunks, i, to, depth)) {
					for (let c = 1; c <= PIECES; c++) {
						best[i][c] = Math.max(best[i][c], score + best[stop][c - 1]);
					}
				}
			}
		}
		memo.set(key, best[from][PIECES]);
		return best[from][PIECES];
	}

	/** Where a template placed at `start` can stop (at most `limit`), with the letters it explains. */
	function matches(chunks: string[], start: number, limit: number, depth: number) {
		const top = depth === TOP;
		const cuttable = top && limit === end;
		const found: Array<[number, number]> = [];
		// Chunk k ended at `next`, having explained `gained` letters: its hole, then chunk k + 1.
		const after = (k: number, next: number, gained: number): void => {
			if (k === chunks.length - 1) {
				found.push([next, gained]);
				return;
			}
			// The quote may end in this hole: the rest of the message lies beyond it.
			if (cuttable) found.push([end, gained + cover(next, end, depth - 1)]);
			for (let hole = next; hole <= limit; hole++) {
				if (q.startsWith(chunks[k + 1], hole) || cutAt(chunks[k + 1], hole)) {
					place(k + 1, hole, gained + cover(next, hole, depth - 1));
				}
			}
		};
		// A chunk cut short by the quote's end (a closing `…` stands for the rest).
		const cutAt = (chunk: string, pos: number) =>
			cuttable && stop - pos >= 3 && chunk.startsWith(q.slice(pos, stop));
		const place = (k: number, pos: number, score: number): void => {
			const chunk = chunks[k];
			if (q.startsWith(chunk, pos) && pos + chunk.length <= limit) {
				after(k, pos + chunk.length, score + lettersIn(chunk));
			} else if (cutAt(chunk, pos)) {
				found.push([limit, score + lettersIn(q.slice(pos, stop))]);
			}
		};
		place(0, start, 0);
		// The quote may begin inside the template: in one of its holes, or in one of its chunks.
		if (!top || !atStart(start)) return found;
		chunks.forEach((chunk, k) => {
			if (k > 0) place(k, start, 0);
			for (let cut = 1; cut < chunk.length; cut++) {
				const tail = chunk.slice(cut);
				if (lettersIn(tail) >= 3 && q.startsWith(tail, start)) {
					after(k, start + tail.length, lettersIn(tail));
				}
			}
		});
		return found;
	}

	const covered = cover(0, end, TOP);
	return { letters, covered, share: letters ? covered / letters : 0 };
}

/** How deep holes may hold other templates, and how many side by side. */
const TOP = 3;
const PIECES = 3;

/** At least this share of a quote's letters must be the code's own text. */
export const EXPLAINED = 0.9;
