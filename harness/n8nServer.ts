/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { N8nSandbox } from './n8n';
import { tail } from './n8n';
import { n8nBin, n8nInstallDir, node24Binary } from './paths';
import { freeLoopbackPort } from './loopback';
import { delay, spawnCaptured, stopProcessGroup, type CapturedProcess } from './processes';

/*
 * A running n8n (`n8n start`) over an N8nSandbox's user folder: workflows and
 * credentials are imported and activated through the sandbox's CLI calls
 * first, then the server runs their triggers as a deployed n8n does (webhooks
 * under /webhook/<path>, schedules, polling triggers). Only one process may
 * use the user folder at a time: no CLI call while a server runs. The editor
 * test (test/ui/lib/n8n-server.ts) starts its n8n here too.
 */

export interface N8nServer {
	readonly port: number;
	/** `http://127.0.0.1:PORT`, no trailing slash. */
	readonly origin: string;
	/** The production URL of a Webhook node's path. */
	webhookUrl(webhookPath: string): string;
	/** Everything the server printed so far (stdout and stderr). */
	output(): string;
	/** Whether the process is still running. */
	running(): boolean;
	/** SIGTERM to its process group (n8n shuts down gracefully), SIGKILL after a grace period. */
	stop(): Promise<void>;
}

export interface StartN8nServerOptions {
	/**
	 * The health check that must answer 200 first: `/healthz` (the default)
	 * answers once the server listens; `/healthz/readiness` once the database
	 * is connected and migrated as well.
	 */
	healthPath?: '/healthz' | '/healthz/readiness';
	/**
	 * Production webhook paths that must be registered before `startN8nServer`
	 * resolves. n8n activates workflows after it answers /healthz (n8n 2.x in
	 * the background, through its publication queue, without an info-level log
	 * line), so readiness is checked from outside: a CORS preflight to the
	 * webhook's URL answers 204 once the path is registered, 404 before.
	 * Schedules and polling triggers show no such sign: wait for what they do.
	 */
	webhookPaths?: string[];
	/** Bound on the whole start (health check and webhooks). */
	startupTimeoutMs?: number;
	/** Extra environment for the server (wins over the sandbox's). */
	env?: Record<string, string>;
}

// n8n 2.x answers /healthz after 20-40 s on a busy 2-core machine.
const DEFAULT_STARTUP_TIMEOUT_MS = 150_000;
// n8n waits this long for running executions on SIGTERM (N8N_GRACEFUL_SHUTDOWN_TIMEOUT): long
// enough for a run a schedule started just before a restart to end rather than be cut off.
const GRACEFUL_SHUTDOWN_SECONDS = 60;

export async function startN8nServer(
	n8n: N8nSandbox,
	options: StartN8nServerOptions = {},
): Promise<N8nServer> {
	const port = await freeLoopbackPort();
	const origin = `http://127.0.0.1:${port}`;
	const env: NodeJS.ProcessEnv = {
		...n8n.environment(),
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		// The server's own task broker, apart from the one the CLI calls use.
		N8N_RUNNERS_BROKER_PORT: String(await freeLoopbackPort()),
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(GRACEFUL_SHUTDOWN_SECONDS),
		...options.env,
	};
	const server = spawnCaptured(node24Binary, [n8nBin, 'start'], { cwd: n8n.rootDir, env });
	const handle: N8nServer = {
		port,
		origin,
		webhookUrl: (webhookPath) => `${origin}/webhook/${webhookPath.replace(/^\/+/, '')}`,
		output: () => server.output(),
		running: () => !server.ended(),
		stop: () => stopProcessGroup(server, (GRACEFUL_SHUTDOWN_SECONDS + 5) * 1000),
	};
	const deadline = Date.now() + (options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS);
	try {
		await waitForHealth(server, origin, options.healthPath ?? '/healthz', deadline);
		for (const webhookPath of options.webhookPaths ?? []) {
			const url = handle.webhookUrl(webhookPath);
			await waitForStatus(server, deadline, {
				url,
				init: {
					method: 'OPTIONS',
					headers: { Origin: 'http://127.0.0.1', 'Access-Control-Request-Method': 'POST' },
				},
				status: 204,
				waitingFor: `registering ${url}`,
				failure: `the webhook ${url} was not registered`,
			});
		}
		return handle;
	} catch (error) {
		await handle.stop();
		throw error;
	}
}

/** Until `origin + healthPath` answers 200 (the queue-mode benchmark waits for its main process here too). */
export async function waitForHealth(
	server: CapturedProcess,
	origin: string,
	healthPath: string,
	deadline: number,
): Promise<void> {
	await waitForStatus(server, deadline, {
		url: `${origin}${healthPath}`,
		status: 200,
		waitingFor: `answering ${healthPath}`,
		failure: `GET ${healthPath} did not answer 200`,
	});
}

/**
 * Asks `url` every 250 ms until it answers `status`; fails when the server ends or at the
 * deadline. `program` names the server in the failure (`n8n start` unless given).
 */
export async function waitForStatus(
	server: CapturedProcess,
	deadline: number,
	expected: {
		url: string;
		init?: RequestInit;
		status: number;
		waitingFor: string;
		failure: string;
		program?: string;
	},
): Promise<void> {
	const program = expected.program ?? 'n8n start';
	let lastAnswer = 'no answer yet';
	const tailed = () => tail(server.output(), 80);
	for (;;) {
		if (server.ended()) {
			throw new Error(
				`${program} ended before ${expected.waitingFor} (${server.child.exitCode ?? server.child.signalCode})\n${tailed()}`,
			);
		}
		try {
			const answer = await fetch(expected.url, {
				...expected.init,
				signal: AbortSignal.timeout(2_000),
			});
			await answer.arrayBuffer();
			if (answer.status === expected.status) return;
			lastAnswer = `status ${answer.status}`;
		} catch (error) {
			lastAnswer = String((error as Error).cause ?? error);
		}
		if (Date.now() > deadline) {
			throw new Error(`${program}: ${expected.failure} in time (${lastAnswer})\n${tailed()}`);
		}
		await delay(250);
	}
}

/**
 * Polls `check` until it returns something other than undefined; fails with
 * `what` ("the schedule did not fire") and the last detail `check` reported
 * once `timeoutMs` has passed.
 */
export async function waitUntil<T>(
	what: string,
	timeoutMs: number,
	check: () => Promise<T | undefined> | T | undefined,
	intervalMs = 500,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what} within ${Math.round(timeoutMs / 1000)} s`);
		await delay(intervalMs);
	}
}

// ---------------------------------------------------------------------------
// Reading what the server did from its SQLite database (read-only). The n8n
// install's own sqlite3 is built for Node 24, so the query runs in a short
// Node 24 child process.

export function databaseFile(n8n: N8nSandbox): string {
	const userFolder = n8n.environment().N8N_USER_FOLDER;
	if (!userFolder) throw new Error('the sandbox has no N8N_USER_FOLDER');
	return path.join(userFolder, '.n8n', 'database.sqlite');
}

const QUERY_SCRIPT = `
const [sqliteModule, file, sql, params] = process.argv.slice(1);
const sqlite3 = require(sqliteModule);
const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => {
	if (error) { console.error(error.message); process.exit(2); }
});
db.configure('busyTimeout', 10000);
db.all(sql, JSON.parse(params), (error, rows) => {
	if (error) { console.error(error.message); process.exit(3); }
	process.stdout.write(JSON.stringify(rows));
	db.close();
});
`;

/** Runs one read-only SQL query on the sandbox's database; `?` placeholders take `params`. */
export async function queryDatabase<T = Record<string, unknown>>(
	n8n: N8nSandbox,
	sql: string,
	params: unknown[] = [],
): Promise<T[]> {
	const file = databaseFile(n8n);
	if (!fs.existsSync(file)) throw new Error(`no n8n database at ${file}`);
	const child = spawnCaptured(
		node24Binary,
		[
			'-e',
			QUERY_SCRIPT,
			path.join(n8nInstallDir, 'node_modules', 'sqlite3'),
			file,
			sql,
			JSON.stringify(params),
		],
		{ env: { PATH: process.env.PATH, HOME: process.env.HOME } },
	);
	const exitCode = await child.exited;
	if (exitCode !== 0) throw new Error(`query ${sql} failed (${exitCode}): ${child.stderr()}`);
	return JSON.parse(child.stdout()) as T[];
}

export interface ExecutionRow {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

/** A workflow's executions, oldest first, as n8n recorded them. */
export async function executionsOf(n8n: N8nSandbox, workflowId: string): Promise<ExecutionRow[]> {
	const rows = await queryDatabase<ExecutionRow>(
		n8n,
		'SELECT id, workflowId, mode, status, startedAt, stoppedAt FROM execution_entity WHERE workflowId = ? ORDER BY id',
		[workflowId],
	);
	return rows.map((row) => ({ ...row, id: String(row.id) }));
}

/**
 * The error message n8n stored for a failed execution (its run data is kept
 * in n8n's `flatted` form), for failure reports.
 */
export async function executionErrorMessage(
	n8n: N8nSandbox,
	executionId: string,
): Promise<string | undefined> {
	const [row] = await queryDatabase<{ data: string }>(
		n8n,
		'SELECT data FROM execution_data WHERE executionId = ?',
		[Number(executionId)],
	);
	if (!row) return undefined;
	try {
		const flatted = require(path.join(n8nInstallDir, 'node_modules', 'flatted')) as {
			parse(text: string): any;
		};
		const data = flatted.parse(row.data);
		const error = data?.resultData?.error;
		const failedNode = data?.resultData?.lastNodeExecuted;
		return error ? `${failedNode ?? '?'}: ${error.message ?? JSON.stringify(error)}` : undefined;
	} catch {
		return row.data.slice(0, 2000);
	}
}

/** A workflow's static data as n8n saved it (the `staticData` column), parsed. */
export async function savedStaticData(
	n8n: N8nSandbox,
	workflowId: string,
): Promise<Record<string, any>> {
	const [row] = await queryDatabase<{ staticData: string | null }>(
		n8n,
		'SELECT staticData FROM workflow_entity WHERE id = ?',
		[workflowId],
	);
	if (!row) throw new Error(`no workflow ${workflowId} in the database`);
	return row.staticData ? (JSON.parse(row.staticData) as Record<string, any>) : {};
}
