/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not part of the n8n package */
import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import { z } from 'zod';

import packageJson from '../../../../package.json';

const ROOT = join(__dirname, '../../../..');

/** The zod major version loaded here: zod 4 says so (`z.core.version`), zod 3 has no `core`. */
function loadedZodMajor(): number {
	return (z as { core?: { version: { major: number } } }).core?.version.major ?? 3;
}

function typeScriptFiles(directory: string): string[] {
	return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
		const path = join(directory, entry.name);
		if (entry.isDirectory()) return typeScriptFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

// zod 3's undocumented internals: they change in patches and are gone in zod 4.
const PRIVATE_ZOD_API = new RegExp(
	[
		'\\b(?:_parse|_getOrReturnCtx|addIssueToContext|ParseContext|ParseStatus|ParseInput|ParseReturnType|SyncParseReturnType)\\b',
		'\\._def\\b',
		'\\bclass\\s+\\w+(?:<.*?>)?\\s+extends\\s+(?:z\\.)?Zod',
		"import\\s*\\{[^}]*\\b(?:INVALID|DIRTY|OK)\\b[^}]*\\}\\s*from\\s*'zod'",
	].join('|'),
);

describe('zod', () => {
	it('is the major version this run is meant for', () => {
		// jest.zod4.config.js sets expectedZodMajor; the plain run uses the zod of package.json.
		const configured = (globalThis as { expectedZodMajor?: number }).expectedZodMajor;
		const declared = Number(packageJson.devDependencies.zod.split('.')[0]);
		expect(loadedZodMajor()).toBe(configured ?? declared);
	});

	it('is used through its public API only, everywhere in the nodes', () => {
		const offenders = typeScriptFiles(join(ROOT, 'nodes'))
			.filter((file) => PRIVATE_ZOD_API.test(readFileSync(file, 'utf8')))
			.map((file) => relative(ROOT, file));
		expect(offenders).toEqual([]);
	});
});
