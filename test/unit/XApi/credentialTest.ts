import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestRequest,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { createCredentialsHelper, credentialTypes } from '../../../harness/engine';

interface TestFailure {
	message?: string;
	cause?: { code?: string; response?: { status: number; statusText?: string } };
}

/**
 * Runs a credential's `test` the way n8n's server does (CredentialsTester.runRequestTest in
 * packages/cli/src/services/credentials-tester.service.ts, n8n 2.x): the test request becomes the
 * `routing.request` of a one-property stand-in node, n8n-core's RoutingNode sends it through
 * httpRequestWithAuthentication (so the credential's `authenticate` applies), and the verdict
 * follows the tester's rules: a request that throws fails, with the message of a `responseCode`
 * rule matching its status if there is one, else the status text; one that returns passes
 * unless a `responseSuccessBody` rule matches its body.
 */
export async function runCredentialTest(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const credentialType = credentialTypes().getByName(type);
	const testRequest = credentialType.test as ICredentialTestRequest;
	const credentialsDecrypted: ICredentialsDecrypted = { id: '1', name: 'Test', type, data };

	const stub: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => stub,
		getByNameAndVersion: () => stub,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: '1', name: 'Test' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = {
		credentialsHelper: createCredentialsHelper({ [type]: data }),
		currentNodeExecutionIndex: 0,
		variables: {},
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
	} as unknown as IWorkflowExecuteAdditionalData;
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		await workflow.expression.acquireIsolate();
		response = await new RoutingNode(context, stub, credentialsDecrypted).runNode();
	} catch (caught) {
		const error = caught as TestFailure;
		const answer = error.cause?.response;
		if (answer) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && answer.status === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (answer.status < 199 || answer.status > 299) {
				return {
					status: 'Error',
					message: answer.statusText || `Received HTTP status code: ${answer.status}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	} finally {
		await workflow.expression.releaseIsolate();
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		if (valueAt(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** The value at a dotted path (lodash's `get`, which the tester uses, for plain keys). */
function valueAt(value: unknown, path: string): unknown {
	let current = value;
	for (const key of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[key];
	}
	return current;
}
