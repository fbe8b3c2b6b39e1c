/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * test/unit mirrors nodes/ (and credentials/): every unit test file is named after the file or
 * folder it tests, so a maintainer looking for a file's tests finds them beside its path.
 * `test/unit/<path>.test.ts` tests `nodes/<path>.ts` or the folder `nodes/<path>/`;
 * `test/unit/credentials/<name>.test.ts` tests `credentials/<name>.ts`. Helpers (non-test files)
 * may sit next to their tests.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');
const UNIT = path.join(ROOT, 'test', 'unit');

function filesUnder(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(full) : [full];
	});
}

/** The file or folder a test file is named after, or undefined when there is none. */
export function testedPath(testFile: string): string | undefined {
	const named = path.relative(UNIT, testFile).split(path.sep).join('/').replace(/\.test\.ts$/, '');
	const [room, rest] = named.startsWith('credentials/')
		? ['credentials', named.slice('credentials/'.length)]
		: ['nodes', named];
	const base = path.join(ROOT, room, rest);
	for (const candidate of [`${base}.ts`, base]) if (fs.existsSync(candidate)) return candidate;
	return undefined;
}

test('every file under test/unit that is a test is named after a file or folder under nodes/', () => {
	const tests = filesUnder(UNIT).filter((file) => file.endsWith('.test.ts'));
	expect(tests.length).toBeGreaterThan(20);
	const unnamed = tests.filter((file) => testedPath(file) === undefined).map((file) => path.relative(ROOT, file));
	expect(unnamed).toEqual([]);
});

test('the rule reads paths the way it says', () => {
	const unit = (name: string) => path.join(UNIT, name);
	expect(testedPath(unit('shared/request/call.test.ts'))).toBe(path.join(ROOT, 'nodes/shared/request/call.ts'));
	expect(testedPath(unit('shared/pacing.test.ts'))).toBe(path.join(ROOT, 'nodes/shared/pacing'));
	expect(testedPath(unit('XApi/XApi.node.test.ts'))).toBe(path.join(ROOT, 'nodes/XApi/XApi.node.ts'));
	expect(testedPath(unit('credentials/XApiLrsApi.credentials.test.ts'))).toBe(
		path.join(ROOT, 'credentials/XApiLrsApi.credentials.ts'),
	);
	expect(testedPath(unit('shared/call.test.ts'))).toBeUndefined();
	expect(testedPath(unit('xapi-node/retry.test.ts'))).toBeUndefined();
});
