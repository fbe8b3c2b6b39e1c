import { createCredentialsHelper } from '../../harness/engine';
import type { HarnessCredentialsHelper } from '../../harness/credentialsHelper';
import type { PackageSource } from '../../harness/nodeTypes';
import {
	courseItems,
	courseUpsertNode,
	httpCourseUpsertNode,
	LMS_CREDENTIAL,
	lmsCredentialData,
	lmsNode,
} from '../../harness/nodes';
import { runSingleNode } from '../../harness/runNode';
import { startBenchSandbox } from './sandboxHandle';

/**
 * Loads and JIT-compiles both nodes, the engine and the sandbox once, so that no measured run
 * pays for module loading or cold code.
 */
export async function warmUp(source: PackageSource): Promise<void> {
	const sandbox = await startBenchSandbox({
		rateLimitPerMinute: 0,
		transactionDelayMs: 0,
		clientId: 'bench-warm-up',
	});
	try {
		const helper = createCredentialsHelper(
			{ [LMS_CREDENTIAL]: lmsCredentialData(sandbox, 1_000_000) },
			source,
		);
		const items = courseItems(300, 'warm');
		for (let round = 0; round < 2; round++) {
			await runSingleNode({ node: courseUpsertNode(), items, source, credentialsHelper: helper });
			await runSingleNode({
				node: httpCourseUpsertNode(sandbox.url),
				items,
				source,
				credentialsHelper: helper,
			});
		}
	} finally {
		await sandbox.close();
	}
}

/** Fetches the access token once, so that measured runs start with it saved, as in steady use. */
export async function fetchToken(
	source: PackageSource,
	helper: HarnessCredentialsHelper,
): Promise<void> {
	const run = await runSingleNode({
		node: lmsNode({ resource: 'course', operation: 'getMany', returnAll: false, limit: 1 }),
		items: [{}],
		source,
		credentialsHelper: helper,
	});
	if (run.error || run.errorItems.length > 0) {
		throw new Error(
			`Could not fetch a token: ${run.error ?? JSON.stringify(run.errorItems[0].json)}`,
		);
	}
}
