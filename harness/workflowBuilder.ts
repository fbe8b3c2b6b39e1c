import { randomUUID } from 'node:crypto';

import type { CredentialJson, WorkflowJson, WorkflowNodeJson } from './workflowJson';

/** The name of the Manual Trigger every built workflow starts with. */
export const START = 'Start';

/** A node before it is placed: the builder gives it a position. */
export interface NodeSpec {
	name: string;
	type: string;
	typeVersion?: number;
	parameters: Record<string, unknown>;
	credentials?: WorkflowNodeJson['credentials'];
	webhookId?: string;
}

/** Credential fields a node refers to: `{ <type>: { id, name } }`. */
export function credentialRef(credential: CredentialJson): WorkflowNodeJson['credentials'] {
	return { [credential.type]: { id: credential.id, name: credential.name } };
}

/** A node of this package, as n8n names it when loaded as a custom extension. */
export function packageNode(
	name: string,
	nodeType: 'learningPlatform' | 'xApi',
	parameters: Record<string, unknown>,
	credential: CredentialJson,
): NodeSpec {
	return { name, type: `CUSTOM.${nodeType}`, parameters, credentials: credentialRef(credential) };
}

/** A Code node (run once for all items) whose JavaScript returns the items. */
export function codeNode(name: string, jsCode: string): NodeSpec {
	return { name, type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } };
}

/**
 * Manual Trigger → each entry of `steps` in turn. An entry that is an array
 * holds nodes that all hang off the previous single node (branches), which ends
 * the chain.
 */
export function manualWorkflow(name: string, steps: Array<NodeSpec | NodeSpec[]>): WorkflowJson {
	return chain(name, { name: START, type: 'n8n-nodes-base.manualTrigger', parameters: {} }, steps);
}

/**
 * Webhook (POST on `path`; `responseMode` 'onReceived' answers at once, 'lastNode' with the last
 * node's output) → `steps`, chained as manualWorkflow chains them.
 */
export function webhookWorkflow(
	name: string,
	path: string,
	responseMode: 'onReceived' | 'lastNode',
	steps: Array<NodeSpec | NodeSpec[]>,
): WorkflowJson {
	const parameters = { httpMethod: 'POST', path, responseMode, options: {} };
	const trigger = { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters };
	return chain(name, { ...trigger, webhookId: randomUUID() }, steps);
}

function chain(name: string, trigger: NodeSpec, steps: Array<NodeSpec | NodeSpec[]>): WorkflowJson {
	const nodes: WorkflowNodeJson[] = [place(trigger, 0, 0)];
	const connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
	> = {};
	let previous = trigger.name;
	steps.forEach((step, column) => {
		const group = Array.isArray(step) ? step : [step];
		group.forEach((spec, row) => nodes.push(place(spec, column + 1, row)));
		connections[previous] = {
			main: [group.map((spec) => ({ node: spec.name, type: 'main' as const, index: 0 }))],
		};
		if (Array.isArray(step)) return;
		previous = step.name;
	});
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

function place(spec: NodeSpec, column: number, row: number): WorkflowNodeJson {
	return { ...spec, typeVersion: spec.typeVersion ?? 1, position: [column * 220, row * 160] };
}
