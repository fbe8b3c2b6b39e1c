/* eslint-disable -- harness code, not part of the n8n package: the community-node rules do not apply */
import 'reflect-metadata';

import { createRequire } from 'node:module';

import type { Container as DiContainer } from '@n8n/di';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IPollFunctions,
	IWorkflowBase,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentialsHelper';
import { createCredentialsHelper, harnessAdditionalData, nodeTypesFor } from './engine';
import type { PackageSource } from './nodeTypes';

/** What one tick of an active workflow's poll produced. */
export interface PollTick {
	/** The items of each emission (an emission starts one execution); none when nothing was new. */
	emissions: INodeExecutionData[][];
	/** An error the tick reported instead (n8n records it as a failed execution). */
	error?: Error;
}

export interface TriggerPollerOptions {
	/** The workflow the trigger is in, as saved: its nodes and connections (id, name, settings optional). */
	workflow: Pick<IWorkflowBase, 'nodes' | 'connections'> &
		Partial<Pick<IWorkflowBase, 'id' | 'name' | 'settings'>>;
	/** The trigger node's name. */
	trigger: string;
	/** Poll the TypeScript sources (the default) or the build (`dist`). */
	source?: PackageSource;
	/** Credential data by credential type, as a user would enter it... */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** ...or a credentials helper shared with other runs (saved tokens carry over). */
	credentialsHelper?: HarnessCredentialsHelper;
}

/**
 * Polls a trigger the way an active n8n workflow does, in this process: n8n-core's PollContext
 * over the workflow, with the static data (where the xAPI Trigger keeps its cursor) saved as
 * JSON from one poll to the next, as n8n keeps it in its database. The one poll harness of the
 * unit and engine tests, the end-to-end suite (through lib/poll-trigger.ts) and the demo.
 */
export class TriggerPoller {
	/** The workflow's static data as saved after the last poll. */
	savedStaticData: IDataObject = {};

	/** The time n8n gives one poll (n8n-core's default when not set). */
	pollBudgetMs: number | undefined;

	private readonly credentialsHelper: HarnessCredentialsHelper;

	constructor(private readonly options: TriggerPollerOptions) {
		this.credentialsHelper =
			options.credentialsHelper ?? createCredentialsHelper(options.credentials, options.source);
	}

	/**
	 * One call of the node's `poll`: its result (`null` when nothing is new), or what it threw.
	 * `manual` is the editor's "Fetch Test Event".
	 */
	async poll(mode: WorkflowExecuteMode = 'trigger'): Promise<INodeExecutionData[][] | null> {
		return await this.withWorkflow(async (workflow, node) => {
			const context = this.context(workflow, node, mode);
			const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			if (!nodeType.poll) throw new Error(`${node.type} is not a polling trigger`);
			return await nodeType.poll.call(context as unknown as IPollFunctions);
		});
	}

	/**
	 * One tick as an active workflow runs it: n8n-core's own PollTriggerExecutor (the per-tick
	 * code of an active workflow) calls the node's `poll`, emits what it returned and reports
	 * what it threw. n8n-core here is the repository's (2.x).
	 */
	async tick(): Promise<PollTick> {
		return await this.withWorkflow(async (workflow, node) => {
			const tick: PollTick = { emissions: [] };
			const context = this.context(
				workflow,
				node,
				'trigger',
				(data) => tick.emissions.push(data[0] ?? []),
				(error) => (tick.error = error),
			);
			await pollTriggerExecutor().create(workflow, node, context, () => true)(false);
			return tick;
		});
	}

	/** A workflow as loaded from the database for one poll; its static data saved afterwards. */
	private async withWorkflow<T>(poll: (workflow: Workflow, node: INode) => Promise<T>): Promise<T> {
		const saved = this.options.workflow;
		const workflow = new Workflow({
			id: saved.id,
			name: saved.name,
			nodes: JSON.parse(JSON.stringify(saved.nodes)) as INode[],
			connections: saved.connections,
			active: true,
			nodeTypes: nodeTypesFor(this.options.source),
			staticData: JSON.parse(JSON.stringify(this.savedStaticData)) as IDataObject,
			settings: saved.settings,
		});
		const node = workflow.getNode(this.options.trigger);
		if (!node) throw new Error(`The workflow has no node "${this.options.trigger}"`);
		try {
			return await poll(workflow, node);
		} finally {
			// Saved even after a failure: whatever the node changed before failing must be harmless.
			this.savedStaticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		}
	}

	private context(
		workflow: Workflow,
		node: INode,
		mode: WorkflowExecuteMode,
		emit?: (data: INodeExecutionData[][]) => void,
		emitError?: (error: Error) => void,
	): PollContext {
		const budget = this.pollBudgetMs;
		return new PollContext(
			workflow,
			node,
			harnessAdditionalData(this.credentialsHelper),
			mode,
			mode === 'manual' ? 'manual' : 'activate',
			emit,
			emitError,
			undefined,
			undefined,
			undefined,
			budget === undefined ? undefined : () => budget,
		);
	}
}

function pollTriggerExecutor(): PollTriggerExecutor {
	// n8n-core registers its services in its own copy of @n8n/di (a newer one than the hoisted copy).
	const requireFromCore = createRequire(require.resolve('n8n-core'));
	const { Container } = requireFromCore('@n8n/di') as { Container: typeof DiContainer };
	return Container.get(PollTriggerExecutor);
}

/** The package's xAPI Trigger alone in a workflow, with these parameters and an LRS credential. */
export function xApiTriggerPoller(
	parameters: IDataObject,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	source: PackageSource = 'source',
): TriggerPoller {
	const node: INode = {
		id: 'trigger',
		name: 'xAPI Trigger',
		type: 'n8n-nodes-learning-platform.xApiTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { xApiLrsApi: { id: '1', name: 'LRS' } },
	};
	return new TriggerPoller({
		workflow: { id: 'poll-test', nodes: [node], connections: {} },
		trigger: node.name,
		source,
		credentials,
	});
}
