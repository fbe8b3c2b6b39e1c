/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * bench/ keeps its list of benchmarks once (bench/benchmarks.ts): bench/README.md's table and
 * bench/RESULTS.md are generated from it and from bench/results.json, so neither may drift from
 * what would be generated now. The generators run as bench/run.ts does (nothing under test/
 * imports bench/, which the last test checks).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** What `npx tsx bench/run.ts <flag> <file>` writes, read back. */
function generated(flag: '--readme' | '--results'): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-test-'));
	const file = path.join(dir, 'out.md');
	try {
		execFileSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', flag, file], {
			cwd: ROOT,
			stdio: 'pipe',
		});
		return fs.readFileSync(file, 'utf8');
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

const read = (relative: string) => fs.readFileSync(path.join(ROOT, relative), 'utf8');

test('bench/README.md holds the table generated from bench/benchmarks.ts (npx tsx bench/run.ts --readme)', () => {
	expect(read('bench/README.md')).toBe(generated('--readme'));
});

test('bench/RESULTS.md is generated from bench/results.json (npx tsx bench/run.ts --results)', () => {
	expect(read('bench/RESULTS.md')).toBe(generated('--results'));
});

test('bench/results.json keeps one entry per benchmark of the list, named as the list names it', () => {
	const names = [...read('bench/benchmarks.ts').matchAll(/^\t\tname: '([^']+)',$/gm)].map(
		(m) => m[1],
	);
	expect(names).toContain('pace');
	const entries = Object.keys(
		(JSON.parse(read('bench/results.json')) as { entries: object }).entries,
	);
	expect(entries.filter((name) => !names.includes(name))).toEqual([]);
});

test('nothing under test/ imports from bench/', () => {
	const files = (dir: string): string[] =>
		fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
			const full = path.join(dir, entry.name);
			return entry.isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
		});
	const importsOfBench = files(path.join(ROOT, 'test')).filter((file) =>
		/(?:from\s*|import\(\s*|require\(\s*)['"](?:\.\.\/)+bench\//.test(
			fs.readFileSync(file, 'utf8'),
		),
	);
	expect(importsOfBench.map((file) => path.relative(ROOT, file))).toEqual([]);
});
