/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import 'reflect-metadata';

import { createRequire } from 'node:module';

import type { Container as DiContainer } from '@n8n/di';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { HarnessCredentialsHelper } from '../../../harness/credentialsHelper';
import { HarnessCredentialTypes, HarnessNodeTypes } from '../../../harness/nodeTypes';
import type { WorkflowNodeJson } from './workflow-json';

/*
 * A polling trigger cannot be put on a schedule through n8n's CLI, and an
 * active workflow polls at most once a minute. This drives one poll tick the
 * way an activated workflow does, in this process: n8n-core's own
 * PollTriggerExecutor (the per-tick code an active workflow runs) calls the
 * BUILT node's `poll` with n8n-core's PollContext, in `trigger` mode, with the
 * node's static data kept between ticks as n8n keeps it in the database.
 * n8n-core here is the version the installed n8n runs.
 */

// n8n-core registers its services in its own copy of @n8n/di (a newer one than the hoisted copy).
const requireFromCore = createRequire(require.resolve('n8n-core'));
const { Container } = requireFromCore('@n8n/di') as { Container: typeof DiContainer };

export interface PollTick {
	/** The items of each emission (an emission starts one execution); none when nothing was new. */
	emissions: INodeExecutionData[][];
	/** An error the tick reported instead (n8n records it as a failed execution). */
	error?: Error;
}

export interface TriggerPoller {
	tick(): Promise<PollTick>;
	/** The node's static data, which carries the trigger's cursor between ticks. */
	staticData(): IDataObject;
}

export interface TriggerPollerOptions {
	/** The trigger node as saved in a workflow (type `CUSTOM.<name>` or `<package>.<name>`). */
	node: WorkflowNodeJson;
	/** Credential data by credential type, as a user would enter it. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	timezone?: string;
}

export function createTriggerPoller(options: TriggerPollerOptions): TriggerPoller {
	const nodeTypes = new HarnessNodeTypes('dist');
	const workflow = new Workflow({
		id: 'e2ePollWorkflow1',
		name: 'e2e poll',
		// n8n gives every saved node an id; the poll's static data is kept per node.
		nodes: [{ id: 'e2e-poll-trigger-node', ...options.node } as INode],
		connections: {},
		active: true,
		nodeTypes,
		staticData: {},
		settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
	});
	const node = workflow.getNode(options.node.name);
	if (!node) throw new Error(`no node ${options.node.name}`);
	const additionalData = {
		// Hands the node the credential data and applies the built credential's `authenticate`.
		credentialsHelper: new HarnessCredentialsHelper(new HarnessCredentialTypes('dist'), options.credentials),
		variables: {},
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
	} as unknown as IWorkflowExecuteAdditionalData;
	const executor = Container.get(PollTriggerExecutor);

	return {
		async tick() {
			const tick: PollTick = { emissions: [] };
			const context = new PollContext(
				workflow,
				node,
				additionalData,
				'trigger',
				'activate',
				(data) => tick.emissions.push(data[0] ?? []),
				(error) => (tick.error = error),
			);
			await executor.create(workflow, node, context, () => true)(false);
			return tick;
		},
		staticData: () => workflow.getStaticData('node', node),
	};
}
