import { PollContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IPollFunctions,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { createCredentialsHelper } from '../../../harness/engine';
import { HarnessNodeTypes } from '../../../harness/nodeTypes';

const TRIGGER = 'n8n-nodes-learning-platform.xApiTrigger';
const nodeTypes = new HarnessNodeTypes('source');

/**
 * Polls the xAPI trigger the way n8n's poller does: a PollContext from n8n-core over a workflow
 * whose static data is saved as JSON between polls, as n8n keeps it in its database.
 */
export class TriggerPoller {
	/** The workflow's static data as saved after the last poll. */
	savedStaticData: IDataObject = {};

	/** The time n8n gives one poll (n8n-core's default when not set). */
	pollBudgetMs: number | undefined;

	constructor(
		private readonly parameters: IDataObject,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
	) {}

	async poll(mode: WorkflowExecuteMode = 'trigger'): Promise<INodeExecutionData[][] | null> {
		const node: INode = {
			id: 'trigger',
			name: 'xAPI Trigger',
			type: TRIGGER,
			typeVersion: 1,
			position: [0, 0],
			parameters: this.parameters as INode['parameters'],
			credentials: { xApiLrsApi: { id: '1', name: 'LRS' } },
		};
		const workflow = new Workflow({
			id: 'poll-test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(JSON.stringify(this.savedStaticData)),
		});
		const additionalData = {
			credentialsHelper: createCredentialsHelper(this.credentials),
			currentNodeExecutionIndex: 0,
			variables: {},
		} as unknown as IWorkflowExecuteAdditionalData;
		const budget = this.pollBudgetMs;
		const context = new PollContext(
			workflow,
			node,
			additionalData,
			mode,
			mode === 'manual' ? 'manual' : 'activate',
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			budget === undefined ? undefined : () => budget,
		);
		const nodeType = nodeTypes.getByNameAndVersion(TRIGGER, 1);
		try {
			return await nodeType.poll!.call(context as unknown as IPollFunctions);
		} finally {
			// Saved even after a failure: whatever the node changed before failing must be harmless.
			this.savedStaticData = JSON.parse(JSON.stringify(workflow.staticData));
		}
	}
}
