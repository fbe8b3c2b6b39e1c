/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { startLrs, type RunningLrs } from '../../harness/lrs';
import { LMS_CREDENTIAL, lmsCredentialData, XAPI_CREDENTIAL } from '../../harness/nodes';
import { lrsEntryPoint } from '../../harness/paths';
import { startChatReceiver, type ChatReceiver } from './chatReceiver';

/** The sandbox's pace: the platform's real throttle, a little network latency, quick transactions. */
export const SANDBOX_SETTINGS = {
	rateLimitPerMinute: 300,
	latencyMs: 30,
	latencyJitterMs: 10,
	transactionDelayMs: 500,
} as const;

/** The value the LRS credential sends as Authorization; the store's proxy refuses any other. */
const LRS_TOKEN = `Basic ${Buffer.from('demo-lrs-key:demo-lrs-secret').toString('base64')}`;

export interface Services {
	sandbox: Sandbox;
	lrs: RunningLrs;
	chat: ChatReceiver;
	/** Credential data by type, as a user would enter it in n8n. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	stop(): Promise<void>;
}

/**
 * Installs the record store into the cache folder outside the repository. The script is
 * idempotent: the first run installs (about a minute), later runs only confirm it is there.
 */
export function ensureLrsInstalled(): void {
	const script = path.resolve(__dirname, '..', 'install-lrs.sh');
	const result = spawnSync('bash', [script], { stdio: ['ignore', 'inherit', 'inherit'] });
	if (result.status !== 0 || !fs.existsSync(lrsEntryPoint)) {
		throw new Error(
			`scripts/install-lrs.sh failed (exit ${result.status ?? result.signal}); the demo needs the record store`,
		);
	}
}

/** Starts what stands in for the outside world; every piece listens on 127.0.0.1, on a free port. */
export async function startServices(): Promise<Services> {
	const started: Array<() => Promise<void>> = [];
	const stop = async () => {
		for (const close of started.reverse()) await close().catch(() => undefined);
	};
	try {
		ensureLrsInstalled();
		const sandbox = await startSandbox({ port: 0, ...SANDBOX_SETTINGS });
		started.push(() => sandbox.close());
		const lrs = await startLrs({ requiredAuthorization: LRS_TOKEN });
		started.push(() => lrs.stop());
		const chat = await startChatReceiver();
		started.push(() => chat.close());
		const credentials: Record<string, ICredentialDataDecryptedObject> = {
			[LMS_CREDENTIAL]: lmsCredentialData(sandbox, SANDBOX_SETTINGS.rateLimitPerMinute),
			[XAPI_CREDENTIAL]: { endpoint: lrs.endpoint, authentication: 'token', token: LRS_TOKEN },
		};
		return { sandbox, lrs, chat, credentials, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
