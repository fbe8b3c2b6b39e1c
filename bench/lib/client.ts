import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';

import { createCredentialsHelper } from '../../harness/engine';
import type { PackageSource } from '../../harness/nodeTypes';
import type { SandboxOptions } from '../../sandbox/server';
import { LMS_CREDENTIAL, lmsCredentialData, lmsNode } from '../../harness/nodes';
import { runSingleNode, type NodeRun, type NodeUnderTest } from '../../harness/runNode';
import { startBenchSandbox, type SandboxHandle } from './sandboxHandle';

/** A sandbox and one LMS credential on it, as a benchmark drives them. */
export interface BenchClient {
	sandbox: SandboxHandle;
	/** One node on `items` through n8n's engine, with this client's credential. */
	run(
		node: NodeUnderTest,
		items: IDataObject[],
		options?: { staticData?: IDataObject; mode?: WorkflowExecuteMode },
	): Promise<NodeRun>;
	/** Fetches the access token, so that measured runs start with it saved, as in steady use. */
	fetchToken(): Promise<void>;
}

/**
 * Runs `measure` against a fresh sandbox (`options`) with a credential at `requestsPerMinute`
 * (by default so high that only the sandbox's own throttle counts), the token fetched first.
 */
export async function withClient<T>(
	source: PackageSource,
	options: Partial<SandboxOptions>,
	measure: (client: BenchClient, sandbox: SandboxHandle) => Promise<T>,
	requestsPerMinute = 10_000_000,
): Promise<T> {
	const sandbox = await startBenchSandbox(options);
	try {
		const credentialsHelper = createCredentialsHelper(
			{ [LMS_CREDENTIAL]: lmsCredentialData(sandbox, requestsPerMinute) },
			source,
		);
		const client: BenchClient = {
			sandbox,
			run: (node, items, more) =>
				runSingleNode({ node, items, source, credentialsHelper, ...more }),
			fetchToken: async () => {
				const run = await client.run(
					lmsNode({ resource: 'course', operation: 'getMany', returnAll: false, limit: 1 }),
					[{}],
				);
				if (run.error || run.errorItems.length > 0)
					throw new Error(
						`Could not fetch a token: ${run.error ?? JSON.stringify(run.errorItems[0].json)}`,
					);
			},
		};
		await client.fetchToken();
		return await measure(client, sandbox);
	} finally {
		await sandbox.close();
	}
}

