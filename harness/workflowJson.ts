import { randomBytes } from 'node:crypto';

/** The parts of a saved n8n workflow these tests read or write. */
export interface WorkflowNodeJson {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	[key: string]: unknown;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: WorkflowNodeJson[];
	connections: Record<string, unknown>;
	active?: boolean;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

/** A credential as `n8n import:credentials` takes it: `data` in plain text. */
export interface CredentialJson {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export const PACKAGE_NAME = 'n8n-nodes-learning-platform';

/**
 * n8n names the node types of a package loaded through N8N_CUSTOM_EXTENSIONS
 * `CUSTOM.<name>`, and those of a package installed from the registry
 * `<package name>.<name>`. Examples are written with the registry name.
 */
export function toCustomNodeTypes(workflow: WorkflowJson): WorkflowJson {
	const registryPrefix = `${PACKAGE_NAME}.`;
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type.startsWith(registryPrefix)
				? { ...node, type: `CUSTOM.${node.type.slice(registryPrefix.length)}` }
				: node,
		),
	};
}

/** n8n ids: 16 characters of [A-Za-z0-9]. */
export function newN8nId(): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(randomBytes(16), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** n8n 1.x saves a workflow's static data only when its id has at most 16 characters. */
export const MAX_WORKFLOW_ID_LENGTH = 16;

export function withId(workflow: WorkflowJson): WorkflowJson & { id: string } {
	const id = workflow.id ?? newN8nId();
	if (id.length > MAX_WORKFLOW_ID_LENGTH) {
		throw new Error(
			`workflow id ${id} is longer than ${MAX_WORKFLOW_ID_LENGTH} characters: n8n 1.x would never save its static data`,
		);
	}
	return { ...workflow, id };
}
