/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The one direction of imports that ARCHITECTURE.md draws, checked on every file under nodes/
 * (type-only imports and re-exports included): credentials → node → transport → shared, and
 * inside shared/ the rooms sync → items → request → pacing.
 */
const ROOT = resolve(__dirname, '../../..');
const NODES = join(ROOT, 'nodes');

/** Rooms of nodes/shared/, each importing only the rooms after it (and itself). */
const SHARED_ROOMS = ['sync', 'items', 'request', 'pacing'];

/** Parts of a node folder that transport (and what it uses) must not import. */
const ABOVE_TRANSPORT = ['actions', 'methods'];

function tsFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

function relativeImports(source: string): string[] {
	const specifiers: string[] = [];
	const pattern =
		/(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|require\(\s*['"](\.[^'"]+)['"]\s*\)/g;
	for (const match of source.matchAll(pattern)) specifiers.push(match[1] ?? match[2] ?? match[3]);
	return specifiers;
}

/** Where a file sits: `shared/<room>`, `<Node>/transport`, `<Node>/actions`, `<Node>` (the node file), … */
function placeOf(path: string): { node?: string; part: string } {
	const parts = relative(NODES, path).split(sep);
	if (parts[0] === 'shared') return { part: `shared/${parts[1]}` };
	return { node: parts[0], part: parts.length > 2 ? parts[1] : 'node' };
}

/** Why an import from `from` to `to` runs against the rule, or undefined. */
function wrongWay(from: string, to: string): string | undefined {
	if (!to.startsWith(NODES + sep)) return 'imports from outside nodes/';
	const source = placeOf(from);
	const target = placeOf(to);
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
	return undefined;
}

function resolved(from: string, specifier: string): string | undefined {
	const base = resolve(dirname(from), specifier);
	return [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => {
		try {
			return statSync(candidate).isFile();
		} catch {
			return false;
		}
	});
}

describe('imports under nodes/ run one way', () => {
	test('no file imports against the rule of ARCHITECTURE.md', () => {
		const wrong: string[] = [];
		for (const file of tsFiles(NODES)) {
			for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
				const target = resolved(file, specifier);
				const why = target ? wrongWay(file, target) : `unresolved import "${specifier}"`;
				if (why) wrong.push(`${relative(ROOT, file)} → ${specifier}: ${why}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	test('the check fails on an import that runs backwards', () => {
		const at = (path: string) => join(NODES, ...path.split('/'));
		expect(wrongWay(at('shared/pacing/throttle.ts'), at('shared/request/secrets.ts'))).toMatch(
			/against sync → items → request → pacing/,
		);
		expect(wrongWay(at('shared/request/call.ts'), at('shared/items/router.ts'))).toBeDefined();
		expect(wrongWay(at('shared/items/router.ts'), at('XApi/transport/index.ts'))).toBe(
			'shared/ imports a node',
		);
		expect(
			wrongWay(
				at('LearningPlatform/transport/courses.ts'),
				at('LearningPlatform/actions/common/courseForm.ts'),
			),
		).toMatch(/transport and what it uses/);
		expect(wrongWay(at('XApi/validation/index.ts'), at('XApi/XApi.node.ts'))).toBeDefined();
		expect(wrongWay(at('shared/items/router.ts'), at('shared/pacing/time.ts'))).toBeUndefined();
		expect(
			wrongWay(at('XApi/actions/statement/send.operation.ts'), at('XApi/transport/index.ts')),
		).toBeUndefined();
	});
});
