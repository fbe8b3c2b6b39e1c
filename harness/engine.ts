/* eslint-disable -- harness code, not part of the n8n package: the community-node rules do not apply */
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeListSearchResult,
	INodeExecutionData,
	IPinData,
	IRun,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentialsHelper';
import type { PackageSource } from './nodeTypes';
import { HarnessCredentialTypes, HarnessNodeTypes } from './nodeTypes';

export interface RunOptions {
	workflow: Pick<IWorkflowBase, 'nodes' | 'connections'> & Partial<IWorkflowBase>;
	/** Credential data by credential type, as a user would enter it. Updated in place by preAuthentication. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Items the start node emits (e.g. a webhook's payload); the start node then passes them through. */
	startItems?: IDataObject[];
	/** Output to use instead of running a node, as n8n's pinned data. */
	pinData?: IPinData;
	/** The node to start from; defaults to the workflow's trigger. */
	startNode?: string;
	mode?: WorkflowExecuteMode;
	/** Run the built package (`dist`) instead of the TypeScript sources. */
	source?: PackageSource;
	/** Shared between runs so that saved tokens carry over, as in n8n's database. */
	credentialsHelper?: HarnessCredentialsHelper;
	staticData?: IDataObject;
	/** Cancels the execution when it aborts, as n8n's Stop button does. */
	signal?: AbortSignal;
}

export interface RunResult {
	run: IRun;
	/** The first run's main-output items of a node (output 0 unless given). */
	outputs(nodeName: string, output?: number): INodeExecutionData[];
	/** The workflow's error, if it stopped on one. */
	error: IRun['data']['resultData']['error'];
	credentialsHelper: HarnessCredentialsHelper;
	staticData: IDataObject;
	/** Set while the execution waits (a Wait node): goes on as n8n does when it is resumed. */
	resume?(): Promise<RunResult>;
}

/** One T per package source, made once per process. */
function perSource<T>(make: (source: PackageSource) => T): (source?: PackageSource) => T {
	const made = new Map<PackageSource, T>();
	return (source = 'source') => made.get(source) ?? made.set(source, make(source)).get(source)!;
}

/** The node types of one package source, loaded once per process. */
export const nodeTypesFor = perSource((source) => new HarnessNodeTypes(source));
export const credentialTypes = perSource((source) => new HarnessCredentialTypes(source));

export function createCredentialsHelper(
	credentials: Record<string, ICredentialDataDecryptedObject> = {},
	source: PackageSource = 'source',
): HarnessCredentialsHelper {
	return new HarnessCredentialsHelper(credentialTypes(source), credentials);
}

/** Runs a workflow through n8n's own execution engine (n8n-core's WorkflowExecute), in this process. */
export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	const source = options.source ?? 'source';
	const nodeTypes = nodeTypesFor(source);
	const credentialsHelper =
		options.credentialsHelper ?? createCredentialsHelper(options.credentials, source);
	const mode = options.mode ?? 'manual';
	const staticData = options.staticData ?? {};

	const workflowData = {
		id: options.workflow.id ?? 'harness',
		name: options.workflow.name ?? 'harness',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		settings: { executionOrder: 'v1' },
		...options.workflow,
	} as IWorkflowBase;
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes,
		staticData,
		settings: workflowData.settings,
	});

	const startNode = options.startNode
		? workflow.getNode(options.startNode)
		: workflow.getStartNode();
	if (!startNode) throw new Error('The workflow has no start node');
	const startItems = (options.startItems ?? [{}]).map((json) => ({ json }));
	const runExecutionData = createRunExecutionData({
		startData: {},
		resultData: { runData: {}, pinData: options.pinData },
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [startItems] }, source: null }],
		},
	});

	const execute = async (data: typeof runExecutionData): Promise<RunResult> => {
		const hooks = new ExecutionLifecycleHooks(mode, 'harness-execution', workflowData);
		let resolveRun: (run: IRun) => void = () => {};
		const finished = new Promise<IRun>((resolve) => (resolveRun = resolve));
		hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));
		const additionalData = harnessAdditionalData(credentialsHelper, hooks);
		const execution = new WorkflowExecute(additionalData, mode, data);
		const running = execution.processRunExecutionData(workflow);
		const cancel = () => running.cancel();
		if (options.signal?.aborted) cancel();
		options.signal?.addEventListener('abort', cancel, { once: true });
		try {
			await running;
		} catch (error) {
			if (!options.signal?.aborted) throw error;
		} finally {
			options.signal?.removeEventListener('abort', cancel);
		}
		const run = await finished;
		return {
			run,
			error: run.data.resultData.error,
			credentialsHelper,
			staticData,
			// n8n's engine goes on past the waiting node (it passes its input on) when run again.
			resume: run.waitTill ? async () => await execute(run.data) : undefined,
			outputs(nodeName: string, output = 0) {
				const taskData = run.data.resultData.runData[nodeName]?.[0];
				if (!taskData) {
					const reason = run.data.resultData.error?.message;
					throw new Error(`Node "${nodeName}" did not run${reason ? `: ${reason}` : ''}`);
				}
				return taskData.data?.main?.[output] ?? [];
			},
		};
	};
	return await execute(runExecutionData);
}

/** What n8n's server hands the engine for one execution, as far as the package needs it. */
export function harnessAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not available in the harness');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Code nodes are not available in the harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface ListSearchOptions {
	/** The node (its type and parameters); it gets the test credential. */
	node: Pick<INode, 'type' | 'parameters'> & { credentialType: string };
	method: string;
	filter?: string;
	paginationToken?: string;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	source?: PackageSource;
}

/** Calls a node's list search as n8n's editor does (n8n-core's LoadOptionsContext). */
export async function searchList(options: ListSearchOptions): Promise<INodeListSearchResult> {
	const source = options.source ?? 'source';
	const nodeTypes = nodeTypesFor(source);
	const node: INode = {
		id: 'node',
		name: 'Node',
		type: options.node.type,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.node.parameters,
		credentials: { [options.node.credentialType]: { id: '1', name: 'Test credential' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = harnessAdditionalData(
		createCredentialsHelper(options.credentials, source),
	);
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters.externalId');
	const nodeType = nodeTypes.getByNameAndVersion(node.type, 1);
	const search = nodeType.methods?.listSearch?.[options.method];
	if (!search) throw new Error(`${node.type} has no list search ${options.method}`);
	return await search.call(context, options.filter, options.paginationToken);
}
