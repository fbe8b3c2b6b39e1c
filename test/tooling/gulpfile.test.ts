/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * `gulp build:icons` (gulpfile.js) run on a copy of the icons in a scratch folder: the task writes
 * to `<cwd>/dist`, so the repository's own `dist/` (used by other suites) is never touched.
 */
const ROOT = path.resolve(__dirname, '../..');
const GULP = path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js');
const ICON = /\.(png|svg)$/;

/** Files under `dir`, as paths relative to `base` with forward slashes. */
function filesUnder(dir: string, base: string): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((entry) => {
			const full = path.join(dir, entry.name);
			return entry.isDirectory()
				? filesUnder(full, base)
				: [path.relative(base, full).split(path.sep).join('/')];
		})
		.sort();
}

/** A PNG-like file whose bytes are not valid UTF-8: decoding it as text would change it. */
function binaryIcon(seed: number): Buffer {
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	const body = Buffer.alloc(512, 0);
	for (let i = 0; i < body.length; i++) body[i] = (i * 37 + seed) % 256;
	return Buffer.concat([signature, body]);
}

describe('gulp build:icons', () => {
	let work: string;
	let icons: string[];
	let others: string[];

	beforeAll(async () => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'build-icons-'));
		const put = (relative: string, content: Buffer | string) => {
			fs.mkdirSync(path.dirname(path.join(work, relative)), { recursive: true });
			fs.writeFileSync(path.join(work, relative), content);
		};

		// The repository's own icons, at their own paths.
		const repoIcons = ['nodes', 'credentials'].flatMap((folder) =>
			filesUnder(path.join(ROOT, folder), ROOT).filter((file) => ICON.test(file)),
		);
		expect(repoIcons).toContain('nodes/XApi/xApi.svg');
		for (const file of repoIcons) put(file, fs.readFileSync(path.join(ROOT, file)));
		// PNGs too (binary, unlike the SVGs), one nested deeper and one for a credential.
		put('nodes/XApi/fixture-icon.png', binaryIcon(1));
		put('nodes/LearningPlatform/fixture/nested-icon.png', binaryIcon(2));
		put('credentials/fixture-icon.png', binaryIcon(3));
		icons = [
			...repoIcons,
			'nodes/XApi/fixture-icon.png',
			'nodes/LearningPlatform/fixture/nested-icon.png',
			'credentials/fixture-icon.png',
		].sort();

		// What is not an icon stays where it is.
		others = [
			'nodes/XApi/XApi.node.ts',
			'nodes/XApi/XApi.node.json',
			'credentials/XApiLrsApi.credentials.ts',
			'nodes/readme.md',
			'icon.svg',
		];
		for (const file of others) put(file, `// ${file}\n`);

		await promisify(execFile)(
			process.execPath,
			[GULP, '--gulpfile', path.join(ROOT, 'gulpfile.js'), '--cwd', work, 'build:icons'],
			{
				timeout: 60_000,
			},
		);
	});

	afterAll(() => {
		fs.rmSync(work, { recursive: true, force: true });
	});

	test('copies every node and credential icon into dist/, keeping its relative path', () => {
		expect(filesUnder(path.join(work, 'dist'), path.join(work, 'dist'))).toEqual(icons);
	});

	test('copies the icons byte for byte (PNGs included)', () => {
		for (const file of icons) {
			const copied = fs.readFileSync(path.join(work, 'dist', file));
			expect({ file, same: copied.equals(fs.readFileSync(path.join(work, file))) }).toEqual({
				file,
				same: true,
			});
		}
	});

	test('copies nothing that is not an icon', () => {
		for (const file of others) expect(fs.existsSync(path.join(work, 'dist', file))).toBe(false);
	});
});
