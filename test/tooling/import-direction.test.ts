/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The house rules of ARCHITECTURE.md, checked on every file under nodes/ and credentials/
 * (type-only imports and re-exports included): imports run credentials → node → transport →
 * shared, and inside shared/ sync → items → form → request → pacing; no resource imports
 * another resource, no operation imports another operation, no item operation reaches the sync
 * engine, and no folder is named `common`.
 */
const ROOT = resolve(__dirname, '../..');

/** Rooms of nodes/shared/, each importing only the rooms after it (and itself). */
const SHARED_ROOMS = ['sync', 'items', 'form', 'request', 'pacing'];

/** Parts of a node folder that transport (and what it uses) must not import. */
const ABOVE_TRANSPORT = ['actions', 'methods'];

/** The files a check reads: path (relative to the repository, `/` separated) → source. */
type Tree = Map<string, string>;

function treeOf(...folders: string[]): Tree {
	const tree: Tree = new Map();
	const walk = (folder: string) => {
		for (const name of readdirSync(folder)) {
			const path = join(folder, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (path.endsWith('.ts'))
				tree.set(relative(ROOT, path).split(sep).join('/'), readFileSync(path, 'utf8'));
		}
	};
	for (const folder of folders) walk(join(ROOT, folder));
	return tree;
}

function relativeImports(source: string): string[] {
	const specifiers: string[] = [];
	const pattern =
		/(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|require\(\s*['"](\.[^'"]+)['"]\s*\)/g;
	for (const match of source.matchAll(pattern)) specifiers.push(match[1] ?? match[2] ?? match[3]);
	return specifiers;
}

function resolved(tree: Tree, from: string, specifier: string): string | undefined {
	const base = join(dirname(from), specifier).split(sep).join('/');
	return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => tree.has(candidate));
}

/** Where a file sits: `shared/<room>`, `<Node>/transport`, `<Node>/actions`, `<Node>` (the node file), `credentials`, … */
function placeOf(path: string): { node?: string; part: string; resource?: string } {
	const parts = path.split('/');
	if (parts[0] === 'credentials') return { part: 'credentials' };
	const [, top, second, third] = parts;
	if (top === 'shared') return { part: `shared/${second}` };
	const resource = second === 'actions' && parts.length > 4 ? third : undefined;
	return { node: top, part: parts.length > 3 ? second : 'node', resource };
}

/** Why an import from `from` to `to` runs against the rules, or undefined. */
function wrongWay(from: string, to: string): string | undefined {
	if (!to.startsWith('nodes/')) return 'imports from outside nodes/';
	const source = placeOf(from);
	const target = placeOf(to);
	if (source.part === 'credentials') {
		return target.part === 'transport' || target.part.startsWith('shared/')
			? undefined
			: `a credential imports ${target.node}/${target.part}: credentials reach their node's transport only`;
	}
	if (source.part.startsWith('shared/')) {
		if (!target.part.startsWith('shared/')) return 'shared/ imports a node';
		const fromRoom = SHARED_ROOMS.indexOf(source.part.slice('shared/'.length));
		const toRoom = SHARED_ROOMS.indexOf(target.part.slice('shared/'.length));
		if (fromRoom < 0 || toRoom < 0) return 'a room of shared/ missing from the rule';
		if (toRoom < fromRoom)
			return `${source.part} imports ${target.part}, against ${SHARED_ROOMS.join(' → ')}`;
		return undefined;
	}
	if (target.part.startsWith('shared/')) return undefined;
	const belowActions = !ABOVE_TRANSPORT.includes(source.part) && source.part !== 'node';
	if (belowActions && (ABOVE_TRANSPORT.includes(target.part) || target.part === 'node')) {
		return `${source.node}/${source.part} imports ${target.node}/${target.part}: transport and what it uses import nothing of actions, methods or node files`;
	}
	if (source.resource && target.resource && source.resource !== target.resource) {
		return `the ${source.resource} resource imports the ${target.resource} resource: what two resources share lives in actions/`;
	}
	if (
		from.endsWith('.operation.ts') &&
		(to.endsWith('.operation.ts') || (target.resource && to.endsWith('/index.ts')))
	) {
		return 'an operation imports another operation: what two operations share lives beside them';
	}
	return undefined;
}

/** Every file a file reaches through its relative imports. */
function reach(tree: Tree, start: string): Set<string> {
	const seen = new Set<string>();
	const stack = [start];
	while (stack.length > 0) {
		const file = stack.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		for (const specifier of relativeImports(tree.get(file) ?? '')) {
			const target = resolved(tree, file, specifier);
			if (target) stack.push(target);
		}
	}
	return seen;
}

/** Every broken rule in the tree, in words. */
function violations(tree: Tree): string[] {
	const wrong: string[] = [];
	for (const [file, source] of tree) {
		if (file.split('/').slice(0, -1).includes('common'))
			wrong.push(`${file}: a folder named common (name rooms for what they hold)`);
		for (const specifier of relativeImports(source)) {
			const target = resolved(tree, file, specifier);
			const why = target ? wrongWay(file, target) : `unresolved import "${specifier}"`;
			if (why) wrong.push(`${file} → ${specifier}: ${why}`);
		}
		const itemOperation =
			file.endsWith('.operation.ts') && !/export const kind = 'batch'/.test(source);
		if (itemOperation) {
			const engine = [...reach(tree, file)].find((reached) =>
				reached.startsWith('nodes/shared/sync/'),
			);
			if (engine) wrong.push(`${file}: an item operation reaches ${engine}, the sync engine`);
		}
	}
	return wrong;
}

describe('the house rules of ARCHITECTURE.md', () => {
	test('nodes/ and credentials/ keep them', () => {
		expect(violations(treeOf('nodes', 'credentials'))).toEqual([]);
	});

	test('the check fails on each kind of violation', () => {
		const tree: Tree = new Map([
			['nodes/shared/pacing/throttle.ts', "import { Redactor } from '../request/secrets';"],
			['nodes/shared/request/secrets.ts', ''],
			['nodes/shared/items/router.ts', "import { x } from '../../XApi/transport/index';"],
			['nodes/XApi/transport/index.ts', "import { y } from '../actions/router';"],
			['nodes/XApi/actions/router.ts', ''],
			['credentials/Lms.credentials.ts', "import { z } from '../nodes/Lms/actions/course/form';"],
			['nodes/Lms/actions/course/form.ts', ''],
			[
				'nodes/Lms/actions/course/get.operation.ts',
				"import { f } from './form';\nimport { p } from '../fields';",
			],
			['nodes/Lms/actions/fields.ts', ''],
			['nodes/Lms/actions/course/archive.operation.ts', "import { g } from './get.operation';"],
			['nodes/Lms/actions/assignment/fields.ts', "import { f } from '../course/form';"],
			[
				'nodes/Lms/actions/assignment/assign.operation.ts',
				"import { r } from '../../transport/run';",
			],
			['nodes/Lms/transport/run.ts', "import { e } from '../../shared/sync/engine';"],
			['nodes/shared/sync/engine.ts', ''],
			[
				'nodes/Lms/actions/assignment/sync.operation.ts',
				"export const kind = 'batch';\nimport { e } from '../../../shared/sync/engine';",
			],
			['nodes/Lms/actions/common/form.ts', ''],
		]);
		const found = violations(tree).join('\n');
		expect(found).toMatch(
			/shared\/pacing imports shared\/request, against sync → items → form → request → pacing/,
		);
		expect(found).toMatch(/shared\/items\/router\.ts → .*: shared\/ imports a node/);
		expect(found).toMatch(/XApi\/transport imports XApi\/actions: transport and what it uses/);
		expect(found).toMatch(/Lms\.credentials\.ts → .*a credential imports Lms\/actions/);
		expect(found).toMatch(
			/assignment\/fields\.ts → .*the assignment resource imports the course resource/,
		);
		expect(found).toMatch(
			/archive\.operation\.ts → \.\/get\.operation: an operation imports another operation/,
		);
		expect(found).toMatch(
			/assign\.operation\.ts: an item operation reaches nodes\/shared\/sync\/engine\.ts/,
		);
		expect(found).toMatch(/actions\/common\/form\.ts: a folder named common/);
		// What the rules allow: a batch operation reaching the engine, a resource importing actions/.
		expect(found).not.toMatch(/sync\.operation\.ts: an item operation/);
		expect(found).not.toMatch(/get\.operation\.ts → /);
		expect(violations(tree)).toHaveLength(8);
	});
});
