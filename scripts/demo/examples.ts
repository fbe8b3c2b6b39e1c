/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IDataObject, INode, IConnections, IPinData } from 'n8n-workflow';

export const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', 'examples');

/** An example as saved in examples/: what n8n exports and imports. */
export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	pinData?: IPinData;
	settings?: IDataObject;
}

export function loadExample(fileName: string): ExampleWorkflow {
	const file = path.join(EXAMPLES_DIR, fileName);
	const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as ExampleWorkflow;
	for (const field of ['id', 'name', 'nodes', 'connections'] as const) {
		if (!workflow[field]) throw new Error(`${fileName} has no "${field}"`);
	}
	return workflow;
}

export function nodeOf(workflow: ExampleWorkflow, name: string): INode {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`"${workflow.name}" has no node named "${name}"`);
	return node;
}

/**
 * Changes one top-level parameter of one node, as a user would before going live (a URL).
 * Only a parameter that exists may be changed, so a renamed node or field fails loudly.
 */
export function setParameter(
	workflow: ExampleWorkflow,
	nodeName: string,
	name: string,
	value: string,
): void {
	const parameters = nodeOf(workflow, nodeName).parameters;
	if (!(name in parameters)) throw new Error(`${nodeName} has no parameter ${name}`);
	parameters[name] = value;
}

/** Sets a field of a Set node ("Edit Fields") by its name. */
export function setField(
	workflow: ExampleWorkflow,
	nodeName: string,
	fieldName: string,
	value: string,
): void {
	const assignments = (
		nodeOf(workflow, nodeName).parameters.assignments as {
			assignments: Array<{ name: string; value: unknown }>;
		}
	).assignments;
	const field = assignments.find((assignment) => assignment.name === fieldName);
	if (!field) throw new Error(`${nodeName} has no field "${fieldName}"`);
	field.value = value;
}

/** The sample items pinned to a trigger: what the trigger would emit when the event happens. */
export function pinnedItems(workflow: ExampleWorkflow): IDataObject[] {
	const nodeName = triggerOf(workflow).name;
	const items = workflow.pinData?.[nodeName];
	if (!items || items.length === 0)
		throw new Error(`"${workflow.name}" has no pinned data for "${nodeName}"`);
	return items.map((item) => structuredClone(item.json));
}

/** The workflow's trigger: the one node no connection leads into that is not a sticky note. */
export function triggerOf(workflow: ExampleWorkflow): INode {
	const targets = new Set(
		Object.values(workflow.connections).flatMap((byType) =>
			Object.values(byType).flatMap((outputs) =>
				(outputs ?? []).flatMap((output) => (output ?? []).map((c) => c.node)),
			),
		),
	);
	const starts = workflow.nodes.filter(
		(node) => node.type !== 'n8n-nodes-base.stickyNote' && !targets.has(node.name),
	);
	if (starts.length !== 1)
		throw new Error(
			`"${workflow.name}" should have one trigger, found ${starts.map((n) => n.name).join(', ')}`,
		);
	return starts[0];
}
