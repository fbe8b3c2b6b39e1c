import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { TriggerPoller } from '../../../harness/poll';
import type { WorkflowNodeJson } from '../../../harness/workflowJson';

export type { PollTick, TriggerPoller } from '../../../harness/poll';

/*
 * A polling trigger cannot be put on a schedule through n8n's CLI, and an
 * active workflow polls at most once a minute. This drives one poll tick the
 * way an activated workflow does, in this process (the shared poll harness,
 * harness/poll.ts): n8n-core's own PollTriggerExecutor (the per-tick code an
 * active workflow runs) calls the BUILT node's `poll` with n8n-core's
 * PollContext, in `trigger` mode, with the node's static data kept between
 * ticks as n8n keeps it in the database.
 * n8n-core here is the repository's (2.x), also when LP_E2E_N8N_MAJOR=1 runs
 * the CLI suites against n8n 1.x: this in-process tick does not exercise
 * n8n 1.x's own poll code.
 */

export interface TriggerPollerOptions {
	/** The trigger node as saved in a workflow (type `CUSTOM.<name>` or `<package>.<name>`). */
	node: WorkflowNodeJson;
	/** Credential data by credential type, as a user would enter it. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	timezone?: string;
}

export function createTriggerPoller(options: TriggerPollerOptions): TriggerPoller {
	return new TriggerPoller({
		workflow: {
			id: 'e2ePollWorkflow1',
			name: 'e2e poll',
			// n8n gives every saved node an id; the poll's static data is kept per node.
			nodes: [{ id: 'e2e-poll-trigger-node', ...options.node } as INode],
			connections: {},
			settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
		},
		trigger: options.node.name,
		source: 'dist',
		credentials: options.credentials,
	});
}
