import type { HarnessCredentialsHelper } from '../../harness/credentialsHelper';
import type { PackageSource } from '../../harness/nodeTypes';
import type { Sandbox } from '../../sandbox/server';

/** What the LMS parts of the soak share: one sandbox and one saved credential, as in one n8n instance. */
export interface LmsSoakContext {
	sandbox: Sandbox;
	credentialsHelper: HarnessCredentialsHelper;
	source: PackageSource;
	/** How long after acceptance a write applies. */
	transactionDelayMs: number;
}

/** The paired input index of an output item. */
export function inputIndexOf(item: { pairedItem?: unknown }): number | undefined {
	const paired = item.pairedItem as { item?: number } | Array<{ item?: number }> | undefined;
	if (Array.isArray(paired)) return paired[0]?.item;
	return paired?.item;
}
