import { PollContext } from 'n8n-core';
import type { IDataObject, INode, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from '../../harness/credentialsHelper';
import { HarnessNodeTypes } from '../../harness/nodeTypes';
import type { ExampleWorkflow } from './examples';

/**
 * Runs a polling trigger the way an active n8n workflow does: the same node, the same workflow
 * static data from one poll to the next (where the trigger keeps its cursor), mode "trigger".
 * Each poll returns the items that would start an execution, or none.
 */
export class TriggerPoller {
	private readonly workflow: Workflow;
	private readonly node: INode;
	private readonly additionalData: IWorkflowExecuteAdditionalData;

	constructor(
		example: ExampleWorkflow,
		triggerName: string,
		credentialsHelper: HarnessCredentialsHelper,
	) {
		this.workflow = new Workflow({
			id: example.id,
			name: example.name,
			nodes: example.nodes,
			connections: example.connections,
			active: true,
			nodeTypes: new HarnessNodeTypes('dist'),
			staticData: {},
			settings: { executionOrder: 'v1' },
		});
		const node = this.workflow.getNode(triggerName);
		if (!node) throw new Error(`"${example.name}" has no node "${triggerName}"`);
		this.node = node;
		this.additionalData = {
			credentialsHelper,
			variables: {},
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://127.0.0.1:5678/rest',
			instanceBaseUrl: 'http://127.0.0.1:5678/',
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
			formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	/** One poll: the new items, oldest first (empty when there is nothing new). */
	async poll(): Promise<IDataObject[]> {
		const nodeType = this.workflow.nodeTypes.getByNameAndVersion(
			this.node.type,
			this.node.typeVersion,
		);
		if (!nodeType.poll) throw new Error(`${this.node.type} is not a polling trigger`);
		const context = new PollContext(
			this.workflow,
			this.node,
			this.additionalData,
			'trigger',
			'activate',
		);
		const output = await nodeType.poll.call(context);
		return (output?.[0] ?? []).map((item) => item.json);
	}

	/** What the trigger keeps between polls. */
	get staticData(): IDataObject {
		return this.workflow.staticData;
	}
}
