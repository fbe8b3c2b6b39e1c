/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8N_VERSION, n8nBin, node24Binary } from '../../e2e/lib/paths';
import { freeLoopbackPort } from '../../../harness/loopback';
import {
	delay,
	spawnCaptured,
	stopProcessGroup,
	type CapturedProcess,
} from '../../e2e/lib/processes';

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

/**
 * `n8n start` with the built package, a fresh user folder (SQLite database,
 * encryption key) and its own ports on 127.0.0.1, then the owner account set up
 * through n8n's REST API (`POST /rest/owner/setup`). `stop()` ends the server
 * and removes the folder.
 */
export async function startN8n(options: StartN8nOptions): Promise<RunningN8n> {
	for (const required of [node24Binary, n8nBin]) {
		if (!fs.existsSync(required)) {
			throw new Error(`missing ${required} (n8n ${N8N_VERSION}): run scripts/install-n8n.sh first`);
		}
	}
	if (!fs.existsSync(path.join(options.packageDir, 'nodes'))) {
		throw new Error(`no built package at ${options.packageDir}: run npm run build first`);
	}
	const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-ui-n8n-'));
	const userFolder = path.join(rootDir, 'user');
	const extensionDir = path.join(rootDir, 'extension');
	fs.mkdirSync(userFolder);
	// Outside the repository no node_modules folder lies above the package, so it
	// resolves n8n-workflow and zod from the host n8n, as an installed community package does.
	fs.cpSync(options.packageDir, extensionDir, { recursive: true });

	const port = await freeLoopbackPort();
	const url = `http://127.0.0.1:${port}`;
	const env: NodeJS.ProcessEnv = {
		// A clean environment; Node 24 first on PATH, because n8n starts its task runner with the same Node.
		PATH: `${path.dirname(node24Binary)}:${process.env.PATH ?? ''}`,
		HOME: process.env.HOME,
		LANG: process.env.LANG ?? 'C.UTF-8',
		TZ: 'UTC',
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		// Every n8n process starts a task broker on 5679 unless told otherwise; other instances may run.
		N8N_RUNNERS_BROKER_PORT: String(await freeLoopbackPort()),
		// Plain http on loopback: the session cookie must not require https.
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		// The onboarding survey would cover the canvas on first sign-in.
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_CUSTOM_EXTENSIONS: extensionDir,
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_FORMAT: 'text',
		NO_COLOR: '1',
	};
	const server = spawnCaptured(node24Binary, [n8nBin, 'start'], { cwd: rootDir, env });
	const output = () => `${server.stdout()}\n${server.stderr()}`;
	const stop = async () => {
		await stopProcessGroup(server, 10_000);
		fs.rmSync(rootDir, { recursive: true, force: true });
	};
	try {
		await waitUntilReady(server, url, output, options.startTimeoutMs ?? 180_000);
		await setUpOwner(url);
	} catch (error) {
		await stop();
		throw error;
	}
	return { url, owner: OWNER, output, stop };
}

async function waitUntilReady(
	server: CapturedProcess,
	url: string,
	output: () => string,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (server.child.exitCode !== null || server.child.signalCode !== null) {
			throw new Error(`n8n start ended before it was ready:\n${tail(output())}`);
		}
		try {
			// Readiness: the database is connected and migrated; the editor is then served.
			const answer = await fetch(`${url}/healthz/readiness`);
			if (answer.status === 200) return;
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) {
			throw new Error(`n8n start was not ready within ${timeoutMs} ms:\n${tail(output())}`);
		}
		await delay(250);
	}
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

function tail(text: string, lines = 60): string {
	return text.split('\n').slice(-lines).join('\n');
}
