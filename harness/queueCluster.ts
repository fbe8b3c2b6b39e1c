/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * n8n in queue mode: the CLI (imports, publishing), a main process that takes the webhooks and
 * puts each execution on the Redis queue, and workers that run them. All share one Postgres
 * database, one Redis, one encryption key and one user folder; each process gets its own task
 * broker port (two on one port collide).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { prepareN8nFolder, withoutMigrationOutput } from './n8n';
import { waitForHealth } from './n8nServer';
import { builtPackageDir, n8nBinOf, n8nInstallDirOf, node24Binary } from './paths';
import { freeLoopbackPort } from './loopback';
import { waitForOutput, type CapturedProcess } from './processes';
import { register, spawnRegistered } from './cleanup';
import type { Postgres, Redis } from './services';

/** The n8n the queue benchmark runs (installed by scripts/install-n8n.sh into the cache). */
export const N8N_VERSION = process.env.QUEUE_N8N_VERSION ?? '2.40.7';
export const N8N_DIR = n8nInstallDirOf(N8N_VERSION);
const N8N_BIN = n8nBinOf(N8N_VERSION);
/** The built package to load: the repository's dist/ unless QUEUE_DIST names another build. */
export const REPO_DIST = builtPackageDir;
export const PACKAGE_DIST = path.resolve(process.env.QUEUE_DIST ?? REPO_DIST);

export function checkN8nInstalled(): void {
	for (const required of [node24Binary, N8N_BIN, path.join(N8N_DIR, '.installed')]) {
		if (!fs.existsSync(required))
			throw new Error(
				`missing ${required}: run scripts/install-n8n.sh first (n8n ${N8N_VERSION} on Node 24)`,
			);
	}
	if (
		!fs.existsSync(path.join(PACKAGE_DIST, 'nodes', 'LearningPlatform', 'LearningPlatform.node.js'))
	) {
		throw new Error(`no build in ${PACKAGE_DIST}: build the package first (npx n8n-node build)`);
	}
}

export interface N8nProcess extends CapturedProcess {
	name: string;
	stop(): Promise<void>;
}

export class QueueN8n {
	private constructor(
		readonly rootDir: string,
		private readonly env: NodeJS.ProcessEnv,
	) {}

	/**
	 * The e2e suites' n8n folder and environment (a user folder, a copy of the built package
	 * outside the repository), plus what queue mode needs: Postgres, Redis, one encryption key.
	 */
	static create(postgres: Postgres, redis: Redis): QueueN8n {
		const { rootDir, env: base } = prepareN8nFolder('lp-queue-n8n-', [PACKAGE_DIST]);
		const removeRoot = () => fs.rmSync(rootDir, { recursive: true, force: true });
		register({ name: 'n8n folder', stop: async () => removeRoot(), kill: removeRoot });
		const env: NodeJS.ProcessEnv = {
			...base,
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_LOG_LEVEL: 'info',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			DB_POSTGRESDB_DATABASE: postgres.database,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
		};
		return new QueueN8n(rootDir, env);
	}

	/** `n8n <args>` to completion; throws with its output unless it exits with 0. */
	async cli(args: string[]): Promise<string> {
		const processEnv = { ...this.env, N8N_RUNNERS_BROKER_PORT: String(await freeLoopbackPort()) };
		const cli = spawnRegistered(`n8n ${args[0]}`, node24Binary, [N8N_BIN, ...args], {
			cwd: this.rootDir,
			env: processEnv,
		});
		const timer = setTimeout(() => void cli.stop(), 300_000);
		try {
			const code = await cli.exited;
			const output = cli.output();
			if (code !== 0)
				throw new Error(
					`n8n ${args.join(' ')} exited with ${code}\n${withoutMigrationOutput(output)}`,
				);
			return output;
		} finally {
			clearTimeout(timer);
			await cli.stop();
		}
	}

	writeInput(name: string, content: unknown): string {
		const file = path.join(this.rootDir, 'io', `${name}.json`);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(content));
		return file;
	}

	/** The main process: editor, REST API and production webhooks (each execution goes to the queue). */
	async startMain(): Promise<N8nProcess & { url: string }> {
		const port = await freeLoopbackPort();
		const main = spawnRegistered('n8n main', node24Binary, [N8N_BIN, 'start'], {
			cwd: this.rootDir,
			env: {
				...this.env,
				N8N_PORT: String(port),
				N8N_LISTEN_ADDRESS: '127.0.0.1',
				N8N_RUNNERS_BROKER_PORT: String(await freeLoopbackPort()),
			},
		});
		return { ...main, name: 'main', url: `http://127.0.0.1:${port}` };
	}

	/** One worker taking up to `concurrency` executions at a time off the queue. */
	async startWorker(name: string, concurrency: number): Promise<N8nProcess> {
		// A user folder of its own: n8n reads the event logs it finds there at start, and takes the
		// executions another process logged as running for crashed ones.
		const userFolder = path.join(this.rootDir, 'workers', name.replace(/\W+/g, '-'));
		fs.mkdirSync(userFolder, { recursive: true });
		const worker = spawnRegistered(
			`n8n ${name}`,
			node24Binary,
			[N8N_BIN, 'worker', `--concurrency=${concurrency}`],
			{
				cwd: this.rootDir,
				env: {
					...this.env,
					N8N_USER_FOLDER: userFolder,
					N8N_RUNNERS_BROKER_PORT: String(await freeLoopbackPort()),
					QUEUE_HEALTH_CHECK_PORT: String(await freeLoopbackPort()),
					// Stopped mid-run (the churn configuration), a worker finishes the executions it runs.
					N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '600',
				},
			},
		);
		return { ...worker, name };
	}
}

export async function waitForWorkerReady(worker: N8nProcess): Promise<void> {
	await waitForOutput(worker, worker.output, /n8n worker is now ready/, 180_000);
}

/** Until GET /healthz answers 200 (the e2e suites' wait). */
export async function waitForHealthy(main: N8nProcess & { url: string }): Promise<void> {
	await waitForHealth(main, main.url, '/healthz', Date.now() + 180_000);
}

/** Execution ids a worker logged as started ("Worker started execution <id> (job <n>)"). */
export function executionsStartedBy(worker: N8nProcess): string[] {
	return [...worker.output().matchAll(/Worker started execution (\S+) \(job/g)].map(
		(match) => match[1],
	);
}
