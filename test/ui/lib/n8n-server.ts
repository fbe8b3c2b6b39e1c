/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { N8nSandbox } from '../../../harness/n8n';
import { startN8nServer, type N8nServer } from '../../../harness/n8nServer';

/** The owner account the editor test signs in with (n8n 2.x cannot be used before an owner exists). */
export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export interface RunningN8n {
	/** http://127.0.0.1:PORT, no trailing slash. */
	url: string;
	owner: Owner;
	/** Everything the server printed so far. */
	output(): string;
	stop(): Promise<void>;
}

export interface StartN8nOptions {
	/** The built package (dist/), copied out of the repository and loaded as a custom extension. */
	packageDir: string;
	/** How long `n8n start` may take until it answers /healthz/readiness. */
	startTimeoutMs?: number;
}

const OWNER: Owner = {
	email: 'builder@example.com',
	// n8n's rule: at least 8 characters, one digit, one capital letter.
	password: 'Editor-test-2024',
	firstName: 'Ada',
	lastName: 'Builder',
};

/** What the editor in a browser needs on top of the e2e suites' server. */
const EDITOR_ENV: Record<string, string> = {
	// Plain http on loopback: the session cookie must not require https.
	N8N_SECURE_COOKIE: 'false',
	// The onboarding survey would cover the canvas on first sign-in.
	N8N_PERSONALIZATION_ENABLED: 'false',
};

/**
 * `n8n start` (harness/n8nServer.ts) over a fresh `N8nSandbox` with the
 * built package (own user folder, SQLite database and encryption key, own
 * ports on 127.0.0.1), ready once `/healthz/readiness` answers (the database
 * is connected and migrated; the editor is then served), then the owner
 * account set up through n8n's REST API (`POST /rest/owner/setup`). `stop()`
 * ends the server and removes the folder.
 */
export async function startN8n(options: StartN8nOptions): Promise<RunningN8n> {
	const sandbox = await N8nSandbox.create({ customExtensions: [options.packageDir] });
	let server: N8nServer | undefined;
	const stop = async () => {
		await server?.stop();
		sandbox.dispose();
	};
	try {
		server = await startN8nServer(sandbox, {
			healthPath: '/healthz/readiness',
			startupTimeoutMs: options.startTimeoutMs ?? 180_000,
			env: EDITOR_ENV,
		});
		await setUpOwner(server.origin);
	} catch (error) {
		await stop();
		throw error;
	}
	return { url: server.origin, owner: OWNER, output: server.output, stop };
}

/** n8n 2.x: `POST /rest/owner/setup` creates the instance owner (once, without authentication). */
async function setUpOwner(url: string): Promise<void> {
	const answer = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	if (answer.status !== 200) {
		throw new Error(`owner setup answered ${answer.status}: ${await answer.text()}`);
	}
}
