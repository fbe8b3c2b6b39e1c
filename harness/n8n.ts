/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freeLoopbackPort } from './loopback';
import { parseExecuteOutput, type ExecutionResult } from './executeOutput';
import { N8N_MAJOR, N8N_VERSION, n8nBin, node24Binary } from './paths';
import { spawnCaptured, stopProcessGroup } from './processes';
import { withId, type CredentialJson, type WorkflowJson } from './workflowJson';

export type { ExecutionResult, NodeRun } from './executeOutput';

/** One finished `n8n <command>` run. */
export interface N8nCliResult {
	args: string[];
	exitCode: number | string;
	stdout: string;
	stderr: string;
}

export interface N8nSandboxOptions {
	/**
	 * Folders whose `**\/*.node.js` and `**\/*.credentials.js` files n8n loads
	 * as `CUSTOM.<name>` node types. Each is copied into the sandbox first (see
	 * `stageExtension`).
	 */
	customExtensions?: string[];
	/** Extra environment for every CLI call (wins over the defaults). */
	env?: Record<string, string>;
}

/** A node type as `n8n export:nodes` lists it. */
export interface ExportedNodeType {
	name: string;
	displayName: string;
	version: number | number[];
	[key: string]: unknown;
}

/** A CLI call still running after this long is killed. */
const COMMAND_TIMEOUT_MS = 180_000;

/**
 * A throw-away n8n instance driven through its CLI: its own user folder
 * (SQLite database, encryption key), removed by `dispose()`. Every CLI call
 * starts the whole application (about 7 s on 2.x, 2 s on 1.x), so import in
 * batches. Which n8n it is (the current 2.x or the last 1.x) follows
 * `LP_E2E_N8N_MAJOR` (see paths.ts); the CLI calls used here behave alike on
 * both, except activation (`activate`).
 */
export class N8nSandbox {
	/** Every CLI call's output, so tests can check that no secret was printed. */
	readonly history: N8nCliResult[] = [];

	private constructor(
		readonly rootDir: string,
		private readonly env: NodeJS.ProcessEnv,
	) {}

	static async create(options: N8nSandboxOptions = {}): Promise<N8nSandbox> {
		for (const required of [node24Binary, n8nBin]) {
			if (!fs.existsSync(required)) {
				throw new Error(
					`missing ${required} (n8n ${N8N_VERSION}): run scripts/install-n8n.sh first`,
				);
			}
		}
		const { rootDir, env: base } = prepareN8nFolder('lp-e2e-n8n-', options.customExtensions ?? []);
		const env: NodeJS.ProcessEnv = {
			...base,
			// The task broker listens on 127.0.0.1:5679 by default; a free port
			// lets several instances (other checkouts, other suites) coexist.
			N8N_RUNNERS_BROKER_PORT: String(await freeLoopbackPort()),
			...options.env,
		};
		return new N8nSandbox(rootDir, env);
	}

	/** Runs `n8n <args>` to completion. */
	async run(args: string[]): Promise<N8nCliResult> {
		const cli = spawnCaptured(node24Binary, [n8nBin, ...args], {
			cwd: this.rootDir,
			env: this.env,
		});
		const timer = setTimeout(() => void stopProcessGroup(cli), COMMAND_TIMEOUT_MS);
		try {
			const exitCode = await cli.exited;
			const result: N8nCliResult = { args, exitCode, stdout: cli.stdout(), stderr: cli.stderr() };
			this.history.push(result);
			return result;
		} finally {
			clearTimeout(timer);
		}
	}

	/** Like `run`, but throws with the whole output unless the exit code is 0. */
	async runOrThrow(args: string[]): Promise<N8nCliResult> {
		const result = await this.run(args);
		if (result.exitCode !== 0) {
			throw new Error(
				`n8n ${args.join(' ')} exited with ${result.exitCode}\n${withoutMigrationLines(result)}`,
			);
		}
		return result;
	}

	/** Stores credentials given with plain `data`; n8n encrypts them with its key. */
	async importCredentials(credentials: CredentialJson[]): Promise<void> {
		const file = this.writeInput('credentials', credentials);
		await this.runOrThrow(['import:credentials', `--input=${file}`]);
	}

	/** Imports all workflows in one CLI call; returns their ids in order. */
	async importWorkflows(workflows: WorkflowJson[]): Promise<string[]> {
		const withIds = workflows.map(withId);
		const file = this.writeInput('workflows', withIds);
		await this.runOrThrow(['import:workflow', `--input=${file}`]);
		return withIds.map((workflow) => workflow.id);
	}

	/** `n8n execute --id=<id> --rawOutput`, with the run data parsed. */
	async execute(workflowId: string): Promise<ExecutionResult> {
		const result = await this.run(['execute', `--id=${workflowId}`, '--rawOutput']);
		return parseExecuteOutput(result);
	}

	/**
	 * Makes a workflow active, for a server (`n8n start`) started afterwards:
	 * n8n 2.x publishes its current version (`update:workflow --active` is
	 * deprecated there); n8n 1.x has no versions and sets the active flag.
	 */
	async activate(workflowId: string): Promise<void> {
		await this.runOrThrow(
			N8N_MAJOR >= 2
				? ['publish:workflow', `--id=${workflowId}`]
				: ['update:workflow', `--id=${workflowId}`, '--active=true'],
		);
	}

	/** Every node type this instance loaded, as `n8n export:nodes` writes them. */
	async exportNodeTypes(): Promise<ExportedNodeType[]> {
		const file = path.join(this.rootDir, 'io', `nodes-${Date.now()}.json`);
		await this.runOrThrow(['export:nodes', `--output=${file}`]);
		return JSON.parse(fs.readFileSync(file, 'utf8')) as ExportedNodeType[];
	}

	/**
	 * The stored credentials, decrypted. Shows what n8n persisted, e.g. a token
	 * that a credential's `preAuthentication` saved.
	 */
	async exportCredentials(): Promise<CredentialJson[]> {
		const file = path.join(this.rootDir, 'io', `credentials-${Date.now()}.json`);
		await this.runOrThrow(['export:credentials', '--all', '--decrypted', `--output=${file}`]);
		return JSON.parse(fs.readFileSync(file, 'utf8')) as CredentialJson[];
	}

	/**
	 * A copy of the environment every CLI call gets (user folder, extensions,
	 * logging), for an `n8n start` server of this same instance (n8n-server.ts).
	 */
	environment(): NodeJS.ProcessEnv {
		return { ...this.env };
	}

	/** stdout and stderr of every CLI call so far. */
	allOutput(): string {
		return this.history.map((result) => `${result.stdout}\n${result.stderr}`).join('\n');
	}

	dispose(): void {
		fs.rmSync(this.rootDir, { recursive: true, force: true });
	}

	private writeInput(kind: string, content: unknown): string {
		const dir = path.join(this.rootDir, 'io');
		fs.mkdirSync(dir, { recursive: true });
		const file = path.join(dir, `${kind}-${Date.now()}-${this.history.length}.json`);
		fs.writeFileSync(file, JSON.stringify(content));
		return file;
	}
}

/**
 * A fresh folder for one n8n installation's processes (its user folder, and the given built
 * packages staged as custom extensions), and the environment every n8n process there starts
 * with: nothing from the test process (npm_config_*, NODE_OPTIONS, …) leaks into n8n, Node 24
 * comes first on PATH (n8n starts its task runner with the same Node), no telemetry, plain log
 * lines. The end-to-end suites and the queue-mode benchmark both start n8n from here.
 */
export function prepareN8nFolder(
	prefix: string,
	customExtensions: string[],
): { rootDir: string; userFolder: string; env: NodeJS.ProcessEnv } {
	const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const userFolder = path.join(rootDir, 'user');
	fs.mkdirSync(userFolder);
	const extensionDirs = customExtensions.map((source, index) =>
		stageExtension(source, path.join(rootDir, 'extensions', String(index))),
	);
	const env: NodeJS.ProcessEnv = {
		PATH: `${path.dirname(node24Binary)}:${process.env.PATH ?? ''}`,
		HOME: process.env.HOME,
		LANG: process.env.LANG ?? 'C.UTF-8',
		TZ: 'UTC',
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_FORMAT: 'text',
		NO_COLOR: '1',
		...(extensionDirs.length > 0 ? { N8N_CUSTOM_EXTENSIONS: extensionDirs.join(';') } : {}),
	};
	return { rootDir, userFolder, env };
}

/** The text without the hundreds of lines a fresh database's migrations print. */
export function withoutMigrationOutput(text: string): string {
	return text
		.split('\n')
		.filter((line) => !/^(Starting|Finished) migration |^Migrations in progress/.test(line))
		.join('\n')
		.trim();
}

/** The last `lines` lines of a process's output, without the migrations. */
export function tail(text: string, lines = 40): string {
	return withoutMigrationOutput(text).split('\n').slice(-lines).join('\n');
}

/** A CLI call's output without the hundreds of lines a fresh database's migrations print. */
export function withoutMigrationLines(result: N8nCliResult): string {
	return withoutMigrationOutput(`${result.stdout}\n${result.stderr}`);
}

/**
 * Copies a built package (or any folder of *.node.js files) into the sandbox.
 * Outside the repository no node_modules folder lies above it, so its
 * `require('n8n-workflow')` and `require('zod')` resolve to the host n8n's
 * copies (n8n adds its own module paths to NODE_PATH), as for an installed
 * community package; a runtime dependency missing from the package shows up
 * here instead of being found in the repository's node_modules.
 */
export function stageExtension(source: string, target: string): string {
	if (!fs.existsSync(source)) {
		throw new Error(`no custom extension folder at ${source}: build the package first`);
	}
	fs.mkdirSync(path.dirname(target), { recursive: true });
	fs.cpSync(source, target, { recursive: true });
	return target;
}
