/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { lrsEntryPoint } from './paths';
import { waitForStatus } from './n8nServer';
import { spawnCaptured, stopProcessGroup, waitForOutput } from './processes';
import { startRecordingProxy, type RecordedRequest } from './recordingProxy';

/*
 * Authorization on this record store (xapi-statements with AUTH_REPO=test):
 * it compares the whole `Authorization` header with fixed test values and
 * checks nothing else.
 *   - `Basic missing_token`   -> 401 (no such client)
 *   - `invalid_scope_client`  -> 403 (client without xAPI scopes)
 *   - anything else, an absent header included -> accepted as a full-scope client
 * So any Basic username/password or any token works against the bare store. To
 * let tests prove which credentials a node sent, every request goes through a
 * recording proxy, which can also insist on one exact `Authorization` value
 * (`requiredAuthorization`) and answer 401 otherwise.
 */

export interface RunningLrs {
	/** The xAPI base, `http://127.0.0.1:PORT/xAPI`: statements are at `${endpoint}/statements`. */
	endpoint: string;
	/** The same xAPI base on the store itself, bypassing the proxy (nothing recorded). */
	storeEndpoint: string;
	/** Credentials to configure; `basicAuthorization` gives their header value. */
	basicAuth: { username: string; password: string };
	/** A value for token authentication, which sends it verbatim as `Authorization`. */
	token: string;
	/** Every request that reached the proxy, in order. */
	requests: RecordedRequest[];
	/** The store's own stdout and stderr. */
	output(): string;
	stop(): Promise<void>;
}

export const XAPI_VERSION_HEADER = { 'X-Experience-API-Version': '1.0.3' } as const;

export function basicAuthorization(credentials: { username: string; password: string }): string {
	return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
}

const STARTUP_TIMEOUT_MS = 30_000;

/** With `requiredAuthorization`, requests with any other `Authorization` get 401 from the proxy. */
export async function startLrs(
	options: { requiredAuthorization?: string } = {},
): Promise<RunningLrs> {
	if (!fs.existsSync(lrsEntryPoint)) {
		throw new Error(`no record store at ${lrsEntryPoint}: run scripts/install-lrs.sh first`);
	}
	// The store writes attachments and access logs under its working folder.
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-lrs-'));
	const store = spawnCaptured(
		process.execPath,
		['--require', path.join(__dirname, 'loopbackListen.js'), lrsEntryPoint],
		{
			cwd: workDir,
			env: {
				PATH: process.env.PATH,
				HOME: process.env.HOME,
				AUTH_REPO: 'test',
				EVENTS_REPO: 'test',
				MODELS_REPO: 'memory',
				STORAGE_REPO: 'local',
				FS_LOCAL_STORAGE_DIR: path.join(workDir, 'storage'),
				EXPRESS_MORGAN_DIRECTORY: path.join(workDir, 'accessLogs'),
				EXPRESS_PORT: '0',
				WINSTON_CONSOLE_LEVEL: 'warn',
				NODE_NO_WARNINGS: '1',
			},
		},
	);
	const cleanUp = async () => {
		await stopProcessGroup(store);
		fs.rmSync(workDir, { recursive: true, force: true });
	};
	try {
		const [, listening] = await waitForOutput(
			store,
			store.stdout,
			/LOOPBACK_LISTENING (\{.*\})/,
			STARTUP_TIMEOUT_MS,
		);
		const storePort = (JSON.parse(listening) as { port: number }).port;
		await waitForStatus(store, Date.now() + STARTUP_TIMEOUT_MS, {
			url: `http://127.0.0.1:${storePort}/xAPI/about`,
			init: { headers: XAPI_VERSION_HEADER },
			status: 200,
			waitingFor: 'answering /xAPI/about',
			failure: 'GET /xAPI/about did not answer 200',
			program: 'the record store',
		});
		const proxy = await startRecordingProxy({
			targetPort: storePort,
			requiredAuthorization: options.requiredAuthorization,
		});
		return {
			endpoint: `${proxy.origin}/xAPI`,
			storeEndpoint: `http://127.0.0.1:${storePort}/xAPI`,
			basicAuth: { username: 'e2e-lrs-user', password: 'e2e-lrs-password' },
			token: 'Basic ZTJlLWxycy10b2tlbg==',
			requests: proxy.requests,
			output: () => store.output(),
			stop: async () => {
				await proxy.close();
				await cleanUp();
			},
		};
	} catch (error) {
		await cleanUp();
		throw error;
	}
}
