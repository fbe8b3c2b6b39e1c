#!/usr/bin/env node
/**
 * Packs the package as `npm publish` would (run `npm run build` first) and checks the tarball:
 *
 * 1. What it holds: package.json, README.md, LICENSE, CHANGELOG.md and the built nodes and
 *    credentials under dist/ (JavaScript, declarations, codex JSON, icons); no tests, sandbox,
 *    bench, docs, TypeScript sources or source maps; every node and credential package.json
 *    names is there.
 * 2. n8n's community-package scanner (@n8n/scan-community-package, a devDependency): its
 *    command line only takes a package name and downloads the published version from the
 *    registry, so this runs the same two lint legs through its exported `analyzePackage`: the
 *    packed tarball (compiled .js and package.json) and the source (nodes/, credentials/,
 *    package.json). The scanner's provenance leg reads the registry's provenance attestation
 *    and can only pass for a version published by .github/workflows/publish.yml.
 *
 *   node scripts/check-tarball.mjs   # what `npm run check:tarball` runs
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const problems = [];
const TOP_LEVEL = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'check-tarball-'));
try {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	const files = packed.files.map((file) => file.path).sort();

	const allowed = (file) =>
		TOP_LEVEL.includes(file) ||
		/^dist\/(nodes|credentials)\/.+\.(js|d\.ts|json|svg|png)$/.test(file);
	for (const file of files) {
		if (!allowed(file)) problems.push(`unexpected file in the tarball: ${file}`);
	}
	for (const file of TOP_LEVEL) {
		if (!files.includes(file)) problems.push(`missing from the tarball: ${file}`);
	}
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		if (!files.includes(file))
			problems.push(`missing from the tarball (run npm run build?): ${file}`);
	}

	const tarball = path.join(work, packed.filename);
	const unpacked = path.join(work, 'package');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	for (const file of files.filter((name) => name.endsWith('.js'))) {
		if (fs.readFileSync(path.join(unpacked, file), 'utf8').includes('sourceMappingURL=')) {
			problems.push(`${file} points to a source map`);
		}
	}

	console.log(
		`${packed.filename}: ${files.length} files, ${packed.size} bytes packed, ${packed.unpackedSize} bytes unpacked`,
	);

	const legs = [
		['scanner, packed tarball (compiled .js, package.json)', unpacked, ['**/*.js', 'package.json']],
		['scanner, source (nodes/, credentials/, package.json)', root, SOURCE_FILE_PATTERNS],
	];
	for (const [label, dir, patterns] of legs) {
		const result = await analyzePackage(dir, patterns);
		if (result.message === 'No files found to analyze') result.passed = false;
		console.log(`${label}: ${result.passed ? 'passed' : `FAILED (${result.message})`}`);
		if (!result.passed) problems.push(`${label}: ${result.message}\n${result.details ?? ''}`);
	}
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
	console.error(problems.join('\n'));
	process.exit(1);
}
console.log('tarball: ok');
