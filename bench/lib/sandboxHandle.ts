/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import http from 'node:http';
import path from 'node:path';

import {
	startSandbox,
	type LoggedRequest,
	type SandboxOptions,
	type SandboxState,
} from '../../sandbox/server';
import { flagName } from '../../sandbox/options';
import { spawnCaptured, stopProcessGroup, waitForOutput } from '../../harness/processes';
import { repoRoot } from '../../harness/paths';

/** The sandbox as the benchmarks use it, whether it runs in this process or in its own. */
export interface SandboxHandle {
	url: string;
	clientId: string;
	clientSecret: string;
	requests(): Promise<LoggedRequest[]>;
	state(): Promise<SandboxState>;
	reset(): Promise<void>;
	close(): Promise<void>;
}

/**
 * Timing benchmarks run the sandbox in a child process (BENCH_SANDBOX=inprocess keeps it here):
 * then the server's own work neither counts as the node's time nor delays the node's timers.
 */
export async function startBenchSandbox(options: Partial<SandboxOptions>): Promise<SandboxHandle> {
	return process.env.BENCH_SANDBOX === 'inprocess'
		? await inProcess(options)
		: await childProcess(options);
}

async function inProcess(options: Partial<SandboxOptions>): Promise<SandboxHandle> {
	const sandbox = await startSandbox(options);
	return {
		url: sandbox.url,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
		requests: async () => sandbox.requests(),
		state: async () => sandbox.state(),
		reset: async () => sandbox.reset(),
		close: () => sandbox.close(),
	};
}

/** The sandbox's CLI in a child process, driven through its admin endpoints. */
async function childProcess(options: Partial<SandboxOptions>): Promise<SandboxHandle> {
	const args = [
		'--import',
		'tsx',
		path.join(repoRoot, 'sandbox', 'cli.ts'),
		'--port',
		'0',
		'--host',
		'127.0.0.1',
	];
	for (const [name, value] of Object.entries(options)) {
		if (value === undefined || name === 'port' || name === 'host') continue;
		args.push(
			`--${flagName(name as keyof SandboxOptions)}`,
			Array.isArray(value) ? value.join(',') : String(value),
		);
	}
	const child = spawnCaptured(process.execPath, args, {
		cwd: repoRoot,
		env: { ...process.env, NODE_NO_WARNINGS: '1' },
	});
	const [, url, clientId, clientSecret] = await waitForOutput(
		child,
		child.stdout,
		/listening on (http:\/\/\S+)\n[\s\S]*client id:\s+(\S+)\n\s+client secret:\s+(\S+)/,
		30_000,
	).catch(async (error: unknown) => {
		await stopProcessGroup(child);
		throw error;
	});
	const admin = async <T>(method: string, adminPath: string): Promise<T> =>
		JSON.parse(await adminRequest(method, `${url}/__sandbox/${adminPath}`)) as T;
	return {
		url,
		clientId,
		clientSecret,
		requests: () => admin<LoggedRequest[]>('GET', 'requests'),
		state: () => admin<SandboxState>('GET', 'state'),
		reset: async () => {
			await admin('POST', 'reset');
		},
		close: () => stopProcessGroup(child),
	};
}

/**
 * One admin call on a fresh connection: a kept-alive one can be closed by the server while idle
 * during a long measured run, just as it is reused.
 */
function adminRequest(method: string, url: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{ method, agent: false, headers: { connection: 'close' } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('error', reject);
				response.on('end', () => {
					const body = Buffer.concat(chunks).toString('utf8');
					if ((response.statusCode ?? 0) < 300) resolve(body);
					else
						reject(
							new Error(
								`Sandbox admin ${method} ${url}: HTTP ${response.statusCode} ${body.slice(0, 200)}`,
							),
						);
				});
			},
		);
		request.on('error', reject);
		request.end();
	});
}
