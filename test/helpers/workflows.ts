import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeParameters,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { runWorkflow } from '../../harness/engine';
import type { RunOptions, RunResult } from '../../harness/engine';

export const LMS_NODE = 'n8n-nodes-learning-platform.learningPlatform';
export const XAPI_NODE = 'n8n-nodes-learning-platform.xApi';

export interface SingleNodeRun {
	type?: string;
	parameters: INodeParameters;
	items?: IDataObject[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	continueOnFail?: boolean;
	credentialsHelper?: RunOptions['credentialsHelper'];
	/** The credential type the node uses, for nodes other than the package's. */
	credentialType?: string;
	/** The id of the credential the node uses (n8n's credential id). */
	credentialId?: string;
	signal?: AbortSignal;
	/** Extra node settings, e.g. the HTTP Request node's version. */
	typeVersion?: number;
	/** The workflow's static data, kept between runs as n8n keeps it for active workflows. */
	staticData?: IDataObject;
	/**
	 * Names another workflow of the test (or its workflow in another n8n process): by default each
	 * test's runs are runs of one workflow of its own.
	 */
	workflowId?: string;
	mode?: RunOptions['mode'];
	/** The node's name in the workflow ("Node" unless given). */
	nodeName?: string;
	/**
	 * The node's id (n8n's node id, kept when the node is renamed): by default one per name, as
	 * n8n gives every node of a workflow its own.
	 */
	nodeId?: string;
}

const CREDENTIAL_OF: Record<string, string> = {
	[LMS_NODE]: 'learningPlatformOAuth2Api',
	[XAPI_NODE]: 'xApiLrsApi',
};

/** Runs one node of the package on the given items, through n8n's execution engine. */
export async function runNode(
	options: SingleNodeRun,
): Promise<RunResult & { items: ReturnType<RunResult['outputs']> }> {
	const type = options.type ?? LMS_NODE;
	const credentialType = CREDENTIAL_OF[type];
	const result = await runWorkflow({
		workflow: {
			id: `${expect.getState().currentTestName ?? 'harness'} / ${options.workflowId ?? 'its workflow'}`,
			nodes: [
				{
					id: 'in',
					name: 'Input',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: options.nodeId ?? (options.nodeName ? `node ${options.nodeName}` : 'node'),
					name: options.nodeName ?? 'Node',
					type,
					typeVersion: options.typeVersion ?? 1,
					position: [200, 0],
					parameters: options.parameters,
					credentials:
						(options.credentialType ?? credentialType)
							? {
									[options.credentialType ?? credentialType]: {
										id: options.credentialId ?? '1',
										name: 'Test credential',
									},
								}
							: undefined,
					onError: options.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow',
				},
			],
			connections: {
				Input: { main: [[{ node: options.nodeName ?? 'Node', type: 'main', index: 0 }]] },
			},
		},
		startNode: 'Input',
		startItems: options.items ?? [{}],
		credentials: options.credentials,
		credentialsHelper: options.credentialsHelper,
		signal: options.signal,
		staticData: options.staticData,
		mode: options.mode,
	});
	const items =
		result.run.data.resultData.runData[options.nodeName ?? 'Node']?.[0]?.data?.main?.[0] ?? [];
	return { ...result, items };
}

/** Statement → Send in JSON mode, the statement taken from each item's `statement`. */
export function sendJsonParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'statement',
		operation: 'send',
		inputMode: 'json',
		statement: '={{ $json.statement }}',
		options: {},
		...extra,
	};
}

/** A node's parameters as the editor holds them: the stored ones and every default its form has. */
export function withFormDefaults(description: INodeTypeDescription, node: INode): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		) ?? {}
	);
}
