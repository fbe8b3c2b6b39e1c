import type { IDataObject, INode, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';

import { runWorkflow } from './engine';
import type { RunResult } from './engine';
import type { HarnessCredentialsHelper } from './credentialsHelper';
import type { PackageSource } from './nodeTypes';

/** The node under test, as it would sit in a saved workflow (without id, name and position). */
export type NodeUnderTest = Pick<INode, 'type' | 'typeVersion' | 'parameters'> &
	Partial<Pick<INode, 'credentials' | 'onError'>>;

export interface NodeRun {
	/** Every item on the node's first output, in order. */
	items: INodeExecutionData[];
	/** Items carrying an `error` (Continue On Fail). */
	errorItems: INodeExecutionData[];
	/** The node's own run time as n8n measured it (startTime to end), in ms. */
	executionMs: number;
	startedAt: number;
	endedAt: number;
	/** The workflow's error, when the node stopped it. */
	error?: string;
	result: RunResult;
}

export const NODE_NAME = 'Node';

/** Runs one node on `items` behind a NoOp "Input" start node, through n8n's execution engine. */
export async function runSingleNode(options: {
	node: NodeUnderTest;
	items: IDataObject[];
	source: PackageSource;
	credentialsHelper: HarnessCredentialsHelper;
	/** The workflow's static data, kept between runs as n8n keeps it for an active workflow. */
	staticData?: IDataObject;
	mode?: WorkflowExecuteMode;
}): Promise<NodeRun> {
	const node: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		position: [200, 0],
		...options.node,
	} as INode;
	const result = await runWorkflow({
		workflow: {
			nodes: [
				{
					id: 'input',
					name: 'Input',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				node,
			],
			connections: { Input: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		},
		startNode: 'Input',
		startItems: options.items,
		source: options.source,
		credentialsHelper: options.credentialsHelper,
		staticData: options.staticData,
		mode: options.mode,
	});
	const task = result.run.data.resultData.runData[NODE_NAME]?.[0];
	const items = task?.data?.main?.[0] ?? [];
	const startedAt = task?.startTime ?? 0;
	const executionMs = task?.executionTime ?? 0;
	return {
		items,
		errorItems: items.filter((item) => item.json.error !== undefined),
		executionMs,
		startedAt,
		endedAt: startedAt + executionMs,
		error: result.error?.message,
		result,
	};
}
