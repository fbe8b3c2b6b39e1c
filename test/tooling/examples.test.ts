/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';

import { HarnessNodeTypes } from '../../harness/nodeTypes';
import { MAX_WORKFLOW_ID_LENGTH, withId } from '../../harness/workflowJson';
import { withFormDefaults } from '../helpers/workflows';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const PACKAGE = 'n8n-nodes-learning-platform.';

interface Example {
	id: string;
	name: string;
	nodes: INode[];
	connections: Record<string, { main: Array<Array<{ node: string; index: number }> | null> }>;
}

const shipped = fs
	.readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.map(
		(file) =>
			[file, JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as Example] as const,
	);
const copyOf = (file: string): Example =>
	structuredClone(shipped.find(([name]) => name === file)![1]);
const nodeNamed = (workflow: Example, name: string) =>
	workflow.nodes.find((node) => node.name === name)!;

const nodeTypes = new HarnessNodeTypes('source');
/** n8n's own nodes as the editor knows them (some do not load under jest). */
const baseNodes = JSON.parse(
	fs.readFileSync(require.resolve('n8n-nodes-base/dist/types/nodes.json'), 'utf8'),
) as INodeTypeDescription[];
function descriptionOf(node: INode): INodeTypeDescription {
	if (!node.type.startsWith('n8n-nodes-base.')) {
		const { description } = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		// What n8n's loader adds to every polling trigger (directory-loader.ts).
		if (!description.polling) return description;
		return { ...description, properties: [...commonPollingParameters, ...description.properties] };
	}
	const name = node.type.slice('n8n-nodes-base.'.length);
	const found = baseNodes.find(
		(description) =>
			description.name === name && [description.version].flat().includes(node.typeVersion),
	);
	if (!found) throw new Error(`no ${node.type} version ${node.typeVersion} in n8n-nodes-base`);
	return found;
}

// ---- the shape n8n's editor stores each parameter in ----

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');
const RESOURCE_LOCATOR_KEYS = ['__rl', 'value', 'mode', 'cachedResultName', 'cachedResultUrl'];

/** What is wrong with one stored value for the property the form shows for it, if anything. */
function valueProblems(property: INodeProperties, value: unknown, at: string): string[] {
	const wrong = (what: string) => [`${at}: ${what}, stored ${JSON.stringify(value)}`];
	switch (property.type) {
		case 'resourceLocator': {
			// The editor always stores a picker as {__rl, value, mode}, an expression included.
			if (!isObject(value) || value.__rl !== true)
				return wrong('a resource locator is stored as { "__rl": true, "value", "mode" }');
			const modes = (property.modes ?? []).map((mode) => mode.name);
			if (!modes.includes(String(value.mode))) return wrong(`its mode must be one of ${modes}`);
			if (typeof value.value !== 'string' && typeof value.value !== 'number')
				return wrong('its value must be text');
			const extra = Object.keys(value).filter((key) => !RESOURCE_LOCATOR_KEYS.includes(key));
			return extra.length > 0 ? wrong(`it has no ${extra.join(', ')}`) : [];
		}
		case 'collection': {
			if (!isObject(value)) return wrong('a collection is stored as an object');
			const options = (property.options ?? []) as INodeProperties[];
			return Object.entries(value).flatMap(([name, inner]) => {
				const option = options.find((candidate) => candidate.name === name);
				return option
					? valueProblems(option, inner, `${at}.${name}`)
					: [`${at}.${name}: no such field in ${property.displayName}`];
			});
		}
		case 'fixedCollection': {
			if (!isObject(value)) return wrong('a fixed collection is stored as an object');
			const groups = (property.options ?? []) as INodePropertyCollection[];
			return Object.entries(value).flatMap(([name, entries]) => {
				const group = groups.find((candidate) => candidate.name === name);
				if (!group) return [`${at}.${name}: no such group in ${property.displayName}`];
				const many = property.typeOptions?.multipleValues === true;
				if (many !== Array.isArray(entries))
					return [`${at}.${name}: ${many ? 'a list' : 'one object'} is stored`];
				return (many ? (entries as unknown[]) : [entries]).flatMap((entry, index) => {
					const where = many ? `${at}.${name}[${index}]` : `${at}.${name}`;
					if (!isObject(entry)) return [`${where}: an object is stored`];
					return Object.entries(entry).flatMap(([field, inner]) => {
						const declared = group.values.find((candidate) => candidate.name === field);
						return declared
							? valueProblems(declared, inner, `${where}.${field}`)
							: [`${where}.${field}: no such field`];
					});
				});
			});
		}
		case 'notice':
		case 'callout':
			return wrong('a notice holds no value');
		default:
			break;
	}
	if (isExpression(value)) return [];
	switch (property.type) {
		case 'string':
		case 'json':
		case 'dateTime':
		case 'color':
			return typeof value === 'string' ? [] : wrong('text is stored');
		case 'number':
			return typeof value === 'number' ? [] : wrong('a number is stored');
		case 'boolean':
			return typeof value === 'boolean' ? [] : wrong('true or false is stored');
		case 'options': {
			if (property.typeOptions?.loadOptionsMethod)
				return ['string', 'number'].includes(typeof value) ? [] : wrong('an option is stored');
			const values = ((property.options ?? []) as INodePropertyOptions[]).map((o) => o.value);
			return values.includes(value as string) ? [] : wrong(`it must be one of ${values}`);
		}
		case 'multiOptions':
			return Array.isArray(value) ? [] : wrong('a list is stored');
		case 'filter':
			return isObject(value) && Array.isArray(value.conditions) ? [] : wrong('conditions');
		case 'assignmentCollection':
			return isObject(value) && Array.isArray(value.assignments) ? [] : wrong('assignments');
		default:
			return [`${at}: a ${property.type} parameter this test does not know how to check`];
	}
}

/**
 * Every stored parameter of a node, against the property its form shows for it (n8n's own
 * display rules, with the defaults a fresh node has): a parameter no form shows is dropped by
 * the editor, and one in another shape shows as something a fresh node never does.
 */
function storedShapeProblems(node: INode): string[] {
	const description = descriptionOf(node);
	const values = withFormDefaults(description, node);
	return Object.entries(node.parameters).flatMap(([name, value]) => {
		const shown = description.properties.find(
			(property) =>
				property.name === name &&
				NodeHelpers.displayParameter(values, property, node, description),
		);
		if (!shown) return [`${node.name}: ${name} is on no form of ${node.type} as set`];
		return valueProblems(shown, value, `${node.name}: ${name}`);
	});
}

// ---- the layout n8n's canvas draws ----

const NODE_SIZE = 100;
/** Room kept around a node: a line closer than this reads as touching it. */
const MARGIN = 12;

interface Box {
	name: string;
	x: number;
	y: number;
}

/** Handle i of n sits at (i + 1) / (n + 1) of the node's side, as n8n's canvas places them. */
const handleY = (box: Box, index: number, count: number) =>
	box.y + (NODE_SIZE * (index + 1)) / (count + 1);

/**
 * The connections that run behind a node other than their own ends. n8n's canvas draws a
 * forward connection as a bezier from the output's handle to the input's, both control points
 * halfway across; a connection drawn backwards goes around nodes, so it is reported too.
 */
function connectionsBehindNodes(workflow: Example): string[] {
	const boxes = new Map<string, Box>();
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.stickyNote') continue;
		boxes.set(node.name, { name: node.name, x: node.position[0], y: node.position[1] });
	}
	const outputs = new Map<string, number>();
	const inputs = new Map<string, number>();
	const lines: Array<{ from: string; output: number; to: string; input: number }> = [];
	for (const [from, { main }] of Object.entries(workflow.connections)) {
		main.forEach((targets, output) => {
			for (const { node: to, index: input } of targets ?? []) {
				lines.push({ from, output, to, input });
				outputs.set(from, Math.max(outputs.get(from) ?? 1, output + 1));
				inputs.set(to, Math.max(inputs.get(to) ?? 1, input + 1));
			}
		});
	}
	return lines.flatMap(({ from, output, to, input }) => {
		const source = boxes.get(from)!;
		const target = boxes.get(to)!;
		const start = { x: source.x + NODE_SIZE, y: handleY(source, output, outputs.get(from)!) };
		const end = { x: target.x, y: handleY(target, input, inputs.get(to)!) };
		const named = `${from} (output ${output + 1}) → ${to} (input ${input + 1})`;
		if (end.x <= start.x) return [`${named} runs backwards`];
		const middle = (start.x + end.x) / 2;
		const behind = new Set<string>();
		for (let step = 0; step <= 200; step++) {
			const t = step / 200;
			const u = 1 - t;
			const x = u ** 3 * start.x + 3 * u * t * middle + t ** 3 * end.x;
			const y = (u ** 3 + 3 * u ** 2 * t) * start.y + (3 * u * t ** 2 + t ** 3) * end.y;
			for (const box of boxes.values()) {
				if (box.name === from || box.name === to) continue;
				if (
					x > box.x - MARGIN &&
					x < box.x + NODE_SIZE + MARGIN &&
					y > box.y - MARGIN &&
					y < box.y + NODE_SIZE + MARGIN
				)
					behind.add(box.name);
			}
		}
		return [...behind].map((name) => `${named} runs behind ${name}`);
	});
}

/** A Merge labels its inputs "Input 1", "Input 2": each is fed by a node of its own, whose name says what arrives. */
function unnamedMergeInputs(workflow: Example): string[] {
	const merges = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.merge');
	return merges.flatMap((merge) =>
		Object.entries(workflow.connections).flatMap(([from, { main }]) => {
			const targets = main.flat().filter((target) => target !== null);
			if (!targets.some((target) => target.node === merge.name)) return [];
			return targets.length === 1
				? []
				: [`${from} feeds ${merge.name} and ${targets.length - 1} other input(s)`];
		}),
	);
}

describe('the example workflows', () => {
	it('are all found', () => {
		expect(shipped.map(([file]) => file)).toEqual(
			expect.arrayContaining(['roster-sync.json', 'roster-review.json', 'catalog-sync.json']),
		);
	});

	// n8n 1.x saves static data (the syncs' memory) only for workflow ids of up to 16 characters:
	// an example imported by `n8n import:workflow` keeps its id, and would forget every night.
	it.each(shipped)('%s has an id n8n 1.x saves static data for', (_file, workflow) => {
		expect(typeof workflow.id).toBe('string');
		expect(workflow.id.length).toBeLessThanOrEqual(MAX_WORKFLOW_ID_LENGTH);
	});

	it('the e2e import refuses a longer id', () => {
		expect(() =>
			withId({ id: 'lpExRosterReview1', name: 'x', nodes: [], connections: {} } as never),
		).toThrow(/longer than 16 characters/);
	});

	it.each(shipped)(
		'%s stores every parameter in the shape its node form stores it',
		(_file, workflow) => {
			expect(workflow.nodes.flatMap(storedShapeProblems)).toEqual([]);
		},
	);

	it.each(shipped)('%s uses the version of our nodes a fresh node has', (_file, workflow) => {
		const ours = workflow.nodes.filter((node) => node.type.startsWith(PACKAGE));
		for (const node of ours) {
			const { version, defaultVersion } = descriptionOf(node);
			const fresh = defaultVersion ?? Math.max(...[version].flat());
			expect(`${node.name} ${node.typeVersion}`).toBe(`${node.name} ${fresh}`);
		}
	});

	it.each(shipped)('%s has no connection behind a node', (_file, workflow) => {
		expect(connectionsBehindNodes(workflow)).toEqual([]);
	});

	it.each(shipped)('%s feeds each Merge input from a node of its own', (_file, workflow) => {
		expect(unnamedMergeInputs(workflow)).toEqual([]);
	});

	describe('the checks fail on what they are there to catch', () => {
		it('a course picker stored as plain text', () => {
			const workflow = copyOf('roster-sync.json');
			nodeNamed(workflow, 'Sync assignments').parameters.externalId = '={{ $json.course }}';
			expect(workflow.nodes.flatMap(storedShapeProblems)).toEqual([
				expect.stringMatching(/^Sync assignments: externalId: a resource locator is stored as/),
			]);
		});

		it('a picker in a mode the node has not, an option the node has not, a number as text', () => {
			const workflow = copyOf('roster-sync.json');
			const sync = nodeNamed(workflow, 'Sync assignments').parameters;
			sync.externalId = { __rl: true, value: 'x', mode: 'url' };
			(sync.options as INodeParameters).maxArchiveShare = 10;
			(sync.options as INodeParameters).maxWithdrawShare = '10';
			sync.archiveMissing = true;
			expect(workflow.nodes.flatMap(storedShapeProblems)).toEqual([
				expect.stringMatching(/externalId: its mode must be one of list,id/),
				expect.stringMatching(/options\.maxWithdrawShare: a number is stored/),
				expect.stringMatching(/options\.maxArchiveShare: no such field/),
				'Sync assignments: archiveMissing is on no form of n8n-nodes-learning-platform.learningPlatform as set',
			]);
		});

		it('an older version of our node', () => {
			const node = { ...nodeNamed(copyOf('roster-sync.json'), 'Sync assignments'), typeVersion: 1 };
			expect(descriptionOf(node).defaultVersion).not.toBe(node.typeVersion);
		});

		it('a connection that passes behind a node, and one drawn backwards', () => {
			const node = (name: string, x: number, y = 0) =>
				({ name, type: 'n8n-nodes-base.noOp', position: [x, y] }) as INode;
			const to = (name: string) => [[{ node: name, type: 'main', index: 0 }]];
			const workflow = {
				nodes: [node('A', 0), node('B', 220), node('C', 440), node('D', 220, 300)],
				connections: { A: { main: to('C') }, C: { main: to('D') } },
			} as unknown as Example;
			expect(connectionsBehindNodes(workflow)).toEqual([
				'A (output 1) → C (input 1) runs behind B',
				'C (output 1) → D (input 1) runs backwards',
			]);
		});

		it('a Merge input fed by a node that also feeds another', () => {
			const workflow = copyOf('roster-review.json');
			workflow.connections["Tonight's pairs"].main[0]!.push({ node: 'Plan the night', index: 0 });
			expect(unnamedMergeInputs(workflow)).toEqual([
				"Tonight's pairs feeds Rows of the night and 1 other input(s)",
			]);
		});
	});
});
