#!/usr/bin/env node
// The weight figures of issue 28 ("A lighter house"), from the working tree: `npm run figures`.
// Needs ../shared/tools/reach.mjs beside the repository (as in CI) for the reach figures, and the
// `duplicates` command on PATH for the repeated blocks (skipped without it). No dependencies.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reachTool = path.resolve(root, '..', 'shared', 'tools', 'reach.mjs');
const REACH_TARGETS = [
	['a course upsert', 'nodes/LearningPlatform/actions/course/upsert.operation.ts'],
	['an xAPI Send', 'nodes/XApi/actions/statement/send.operation.ts'],
	['the LMS credential', 'credentials/LearningPlatformOAuth2Api.credentials.ts'],
	[
		'Assign (Start and Withdraw alike)',
		'nodes/LearningPlatform/actions/assignment/assign.operation.ts',
	],
	['Archive', 'nodes/LearningPlatform/actions/course/archive.operation.ts'],
	['Get', 'nodes/LearningPlatform/actions/course/get.operation.ts'],
	['Transaction Wait', 'nodes/LearningPlatform/actions/transaction/wait.operation.ts'],
];
// A client-credentials token request: the grant type written as a body field, query or form value.
const CLIENT_CREDENTIALS_GRANT = /grant_type['"]?\s*[:=]\s*['"]?client_credentials/;

function filesUnder(folder, accept) {
	if (!fs.existsSync(folder)) return [];
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(folder, entry.name);
		if (entry.isDirectory()) return filesUnder(file, accept);
		return accept(entry.name) ? [file] : [];
	});
}

/** Lines of a TypeScript source: all, non-blank, and comment lines (// … and inside /* … *\/). */
function countLines(source) {
	let nonBlank = 0;
	let comment = 0;
	let inBlock = false;
	const lines = source.split('\n');
	if (lines.at(-1) === '') lines.pop();
	for (const raw of lines) {
		const line = raw.trim();
		if (line === '') continue;
		nonBlank++;
		if (inBlock) {
			comment++;
			if (line.includes('*/')) inBlock = false;
		} else if (line.startsWith('//')) {
			comment++;
		} else if (line.startsWith('/*')) {
			comment++;
			inBlock = !line.includes('*/');
		}
	}
	return { all: lines.length, nonBlank, comment };
}

const relative = (file) => path.relative(root, file);
const percent = (part, whole) => `${((100 * part) / Math.max(whole, 1)).toFixed(1)} %`;
const figures = [];
const say = (figure, value, note = '') => figures.push([figure, String(value), note]);
let missing = false;

const sources = filesUnder(path.join(root, 'nodes'), (name) => name.endsWith('.ts'));
const totals = sources
	.map((file) => countLines(fs.readFileSync(file, 'utf8')))
	.reduce(
		(sum, count) => ({
			all: sum.all + count.all,
			nonBlank: sum.nonBlank + count.nonBlank,
			comment: sum.comment + count.comment,
		}),
		{ all: 0, nonBlank: 0, comment: 0 },
	);
say(
	'lines under nodes/',
	totals.nonBlank,
	`non-blank lines of ${sources.length} .ts files (${totals.all} with blank lines, as wc -l counts)`,
);

const operations = filesUnder(path.join(root, 'nodes'), (name) =>
	name.endsWith('.operation.ts'),
).filter((file) => path.basename(path.dirname(path.dirname(file))) === 'actions');
say('operations', operations.length, 'nodes/*/actions/*/*.operation.ts files');
say(
	'lines per operation',
	Math.round(totals.nonBlank / Math.max(operations.length, 1)),
	'non-blank lines under nodes/ / operations',
);

if (fs.existsSync(reachTool)) {
	for (const [what, file] of REACH_TARGETS) {
		if (!fs.existsSync(path.join(root, file))) {
			say(`files and lines ${what} reaches`, 'missing', `${file} is not in the tree`);
			continue;
		}
		const [files, lines] = execFileSync(process.execPath, [reachTool, file], {
			cwd: root,
			encoding: 'utf8',
		})
			.trim()
			.split(/\s+/);
		say(
			`files and lines ${what} reaches`,
			`${files} files, ${lines} lines`,
			`${file}, through its relative imports (lines as reach.mjs counts them, blank included)`,
		);
	}
} else {
	missing = true;
	say(
		'files and lines reached through imports',
		'NOT MEASURED',
		`${reachTool} is missing: the shared tools must sit beside the repository`,
	);
}

if (fs.existsSync(reachTool)) {
	const lmsOperations = filesUnder(
		path.join(root, 'nodes', 'LearningPlatform', 'actions'),
		(name) => name.endsWith('.operation.ts'),
	);
	const reaches = lmsOperations.map((file) =>
		execFileSync(process.execPath, [reachTool, file], { cwd: root, encoding: 'utf8' })
			.trim()
			.split(/\s+/)
			.map(Number),
	);
	const mean = (index) => reaches.reduce((sum, reach) => sum + reach[index], 0) / reaches.length;
	say(
		`mean reach of the ${lmsOperations.length} LMS operations`,
		`${mean(0).toFixed(1)} files, ${Math.round(mean(1))} lines`,
		'nodes/LearningPlatform/actions/*/*.operation.ts, each through its relative imports',
	);
}

const linesOf = (folders, accept = (name) => name.endsWith('.ts')) =>
	folders
		.flatMap((folder) => filesUnder(path.join(root, folder), accept))
		.reduce((sum, file) => sum + countLines(fs.readFileSync(file, 'utf8')).all, 0);
say(
	'lines of XApi and XApiTrigger',
	linesOf(['nodes/XApi', 'nodes/XApiTrigger']),
	'all lines of their .ts files',
);
say('lines of XApi/validation', linesOf(['nodes/XApi/validation']), 'all lines of its .ts files');

// An API field name (snake_case, from the platform's documents) spelled as a quoted name or a key.
const docs = path.resolve(root, '..', 'shared', 'platform-docs');
const apiNames = fs.existsSync(docs)
	? [
			...new Set(
				fs
					.readdirSync(docs)
					.flatMap(
						(name) =>
							fs.readFileSync(path.join(docs, name), 'utf8').match(/^\| ([a-z]+_[a-z_]+)/gm) ?? [],
					)
					.map((cell) => cell.slice(2)),
			),
		]
	: [];
const nodeSources = sources.map((file) => [relative(file), fs.readFileSync(file, 'utf8')]);
const spelledTwice = apiNames.filter(
	(name) =>
		nodeSources.filter(
			([, text]) => text.includes(`'${name}'`) || new RegExp(`\\b${name}:`).test(text),
		).length > 1,
);
say(
	'API field names spelled in more than one file',
	fs.existsSync(docs) ? spelledTwice.length : 'NOT MEASURED',
	fs.existsSync(docs)
		? `${apiNames.length} snake_case field names of ../shared/platform-docs, as a quoted name or a key${spelledTwice.length ? `: ${spelledTwice.join(', ')}` : ''}`
		: 'needs ../shared/platform-docs beside the repository',
);

const grantFiles = ['nodes', 'credentials']
	.flatMap((folder) => filesUnder(path.join(root, folder), (name) => name.endsWith('.ts')))
	.filter((file) => CLIENT_CREDENTIALS_GRANT.test(fs.readFileSync(file, 'utf8')));
say(
	'files that build a client-credentials token request',
	grantFiles.length,
	grantFiles.map(relative).join(', '),
);

try {
	const output = execFileSync(
		'duplicates',
		['--repo', 'nodes', '--min-lines', '5', '--most', '1', '--seconds', '120'],
		{
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		},
	);
	const firstLine = output.split('\n')[0];
	const pairs =
		/^(\d+) pairs/.exec(firstLine)?.[1] ?? (/^no duplicates/.test(firstLine) ? '0' : '?');
	say(
		'pairs of places under nodes/ repeating a block of 5 lines or more',
		pairs,
		`duplicates --repo nodes --min-lines 5: ${firstLine}`,
	);
} catch (error) {
	const reason =
		error.code === 'ENOENT'
			? 'the duplicates command is not on PATH'
			: `duplicates failed: ${error.message}`;
	say('pairs of places repeating a block of 5 lines or more', 'skipped', reason);
}

say(
	'comment lines under nodes/',
	percent(totals.comment, totals.all),
	`${totals.comment} of all ${totals.all} lines (${percent(totals.comment, totals.nonBlank)} of the non-blank ones)`,
);

const width = Math.max(...figures.map(([figure]) => figure.length));
const valueWidth = Math.max(...figures.map(([, value]) => value.length));
for (const [figure, value, note] of figures) {
	console.log(`${figure.padEnd(width)}  ${value.padEnd(valueWidth)}  ${note}`);
}
if (missing) {
	console.error(`\nThe reach figures need ${reachTool} (the shared tools beside the repository).`);
	process.exitCode = 1;
}
