/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Loads every node and credential the package declares (package.json → n8n), from dist/, as n8n
 * does at start-up. A missing or broken build fails here, before the story starts, and a build
 * started elsewhere while the demo runs cannot pull files from under it.
 */
export function loadBuiltPackage(): string[] {
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const files = [...manifest.n8n.credentials, ...manifest.n8n.nodes];
	const missing = files.filter((file) => !fs.existsSync(path.join(ROOT, file)));
	if (missing.length > 0) {
		throw new Error(`the build is incomplete (missing ${missing.join(', ')}): run "npm run build"`);
	}
	for (const file of files) require(path.join(ROOT, file));
	return files;
}
