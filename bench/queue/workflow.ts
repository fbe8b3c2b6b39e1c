/**
 * What the queue benchmark imports into n8n: one LMS credential per configuration (they differ in
 * Requests per Minute only) and one workflow per configuration, Webhook → Split Out → Create or
 * Update Course. A production webhook received by the main process in queue mode becomes a job
 * on the queue that a worker runs.
 */
import { randomBytes, randomUUID } from 'node:crypto';

/** n8n ids: 16 characters of [A-Za-z0-9]. */
export function newN8nId(): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(randomBytes(16), (byte) => alphabet[byte % alphabet.length]).join('');
}

export interface SandboxAccess {
	url: string;
	clientId: string;
	clientSecret: string;
}

export interface CredentialJson {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export function lmsCredential(
	name: string,
	sandbox: SandboxAccess,
	requestsPerMinute: number,
): CredentialJson {
	return {
		id: newN8nId(),
		name,
		type: 'learningPlatformOAuth2Api',
		// Only what a user fills in: every other field keeps the credential's defaults.
		data: {
			baseUrl: sandbox.url,
			clientId: sandbox.clientId,
			clientSecret: sandbox.clientSecret,
			requestsPerMinute,
		},
	};
}

export interface QueueWorkflow {
	id: string;
	name: string;
	webhookPath: string;
	json: Record<string, unknown>;
}

/**
 * Webhook (POST, answers at once) → Split Out `body.courses` (one item per course) → the
 * package's Create or Update Course with every node setting at its default, except Wait for
 * Completion when `waitForCompletion` is false.
 */
export function upsertWorkflow(
	name: string,
	webhookPath: string,
	credential: CredentialJson,
	waitForCompletion: boolean,
): QueueWorkflow {
	const id = newN8nId();
	const options: Record<string, unknown> = waitForCompletion ? {} : { waitForCompletion: false };
	const json = {
		id,
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					httpMethod: 'POST',
					path: webhookPath,
					responseMode: 'onReceived',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'One item per course',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.courses', include: 'noOtherFields', options: {} },
			},
			{
				id: randomUUID(),
				name: 'Create or update course',
				type: 'CUSTOM.learningPlatform',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'course',
					operation: 'upsert',
					externalId: { __rl: true, mode: 'id', value: '={{ $json.externalId }}' },
					name: '={{ $json.name }}',
					url: '={{ $json.url }}',
					options,
				},
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'One item per course', type: 'main', index: 0 }]] },
			'One item per course': {
				main: [[{ node: 'Create or update course', type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
	return { id, name, webhookPath, json };
}
