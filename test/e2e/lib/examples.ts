/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { repoRoot } from '../../../harness/paths';
import { codeNode } from '../../../harness/workflowBuilder';
import type { WorkflowJson, WorkflowNodeJson } from '../../../harness/workflowJson';

export const examplesDir = path.join(repoRoot, 'examples');

export function loadExample(file: string): WorkflowJson {
	return JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')) as WorkflowJson;
}

/** The node whose output is pinned (the trigger) and the `json` of its pinned items. */
export function pinnedTrigger(workflow: WorkflowJson): {
	name: string;
	items: Array<Record<string, unknown>>;
} {
	const pinData = (workflow.pinData ?? {}) as Record<
		string,
		Array<{ json?: Record<string, unknown> }>
	>;
	const names = Object.keys(pinData);
	if (names.length !== 1)
		throw new Error(`${workflow.name}: expected pinned data on one node, found ${names.length}`);
	return {
		name: names[0],
		items: pinData[names[0]].map((item) => item.json ?? (item as Record<string, unknown>)),
	};
}

export const MANUAL_START = 'Manual start';
export const SAMPLE_DATA = 'Sample data';

/**
 * `n8n execute` starts only at a Manual Trigger and ignores pinned data (that
 * is for manual runs from the editor). This puts a Manual Trigger and a Code
 * node returning the given items in front of the example's trigger, and
 * leaves every node of the example as it is. In a run that does not start
 * at it, n8n passes a trigger node's input through as its output (webhook,
 * schedule and polling triggers alike), so the trigger hands on these items as
 * if it had received them, and nodes that need it as a parent (Respond to
 * Webhook) find it.
 */
export function startingWith(
	workflow: WorkflowJson,
	triggerName: string,
	items: Array<Record<string, unknown>>,
): WorkflowJson {
	const trigger = workflow.nodes.find((node) => node.name === triggerName);
	if (!trigger) throw new Error(`${workflow.name} has no node "${triggerName}"`);
	const [x, y] = trigger.position;
	const manual: WorkflowNodeJson = {
		name: MANUAL_START,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [x - 440, y],
		parameters: {},
	};
	const sample: WorkflowNodeJson = {
		...codeNode(SAMPLE_DATA, `return ${JSON.stringify(items.map((json) => ({ json })))};`),
		typeVersion: 2,
		position: [x - 220, y],
	};
	const { pinData: _pinned, ...rest } = workflow;
	return {
		...rest,
		nodes: [manual, sample, ...workflow.nodes],
		connections: {
			...workflow.connections,
			[MANUAL_START]: { main: [[{ node: SAMPLE_DATA, type: 'main', index: 0 }]] },
			[SAMPLE_DATA]: { main: [[{ node: triggerName, type: 'main', index: 0 }]] },
		},
	};
}

/** A copy of the workflow with one node's parameters changed by `change`. */
export function withParameters(
	workflow: WorkflowJson,
	nodeName: string,
	change: (parameters: Record<string, any>) => void,
): WorkflowJson {
	if (!workflow.nodes.some((node) => node.name === nodeName))
		throw new Error(`${workflow.name} has no node "${nodeName}"`);
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.name !== nodeName) return node;
			const parameters = structuredClone(node.parameters);
			change(parameters);
			return { ...node, parameters };
		}),
	};
}

/** The due date hr-event-to-assignment.json sets: 14 days after the hire's start date. */
export function onboardingDueDate(startDate: string): string {
	const date = new Date(`${startDate}T00:00:00Z`);
	date.setUTCDate(date.getUTCDate() + 14);
	return date.toISOString().slice(0, 10);
}

/** One completion as the sender posts it to completion-chain.json (its pinned data). */
export interface Completion {
	completionId: string;
	email: string;
	name: string;
	courseExternalId: string;
	courseUrl: string;
	courseName: string;
	completedAt: string;
	scorePercent: number;
	passed: boolean;
	minutesSpent: number;
}
