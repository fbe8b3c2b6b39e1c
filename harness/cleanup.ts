/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Everything the queue cluster (queueCluster.ts, services.ts) starts is registered here and stopped on the way out: at the
 * end of a run, on a failure, on Ctrl+C / SIGTERM, and (synchronously, as a last resort) when the
 * process exits any other way.
 */
import { spawnSync } from 'node:child_process';

import { spawnCaptured, stopProcessGroup, type CapturedProcess } from './processes';

interface Stoppable {
	name: string;
	/** Orderly stop. */
	stop(): Promise<void>;
	/** Last resort from the exit handler: no awaiting there. */
	kill(): void;
}

const registered: Stoppable[] = [];

export function register(stoppable: Stoppable): () => void {
	registered.push(stoppable);
	return () => {
		const index = registered.indexOf(stoppable);
		if (index >= 0) registered.splice(index, 1);
	};
}

/** A child in its own process group, stopped with its whole group. */
export function spawnRegistered(
	name: string,
	command: string,
	args: string[],
	options: { cwd?: string; env: NodeJS.ProcessEnv; afterStop?: () => void },
): CapturedProcess & { stop(): Promise<void> } {
	const child = spawnCaptured(command, args, options);
	// A spawn failure (missing binary) rejects `exited`; callers see it through the process state.
	child.exited.catch(() => undefined);
	const stop = async () => {
		await stopProcessGroup(child, 10_000);
		options.afterStop?.();
	};
	const unregister = register({
		name,
		stop,
		kill: () => {
			killGroup(child.child.pid);
			options.afterStop?.();
		},
	});
	return {
		...child,
		stop: async () => {
			await stop();
			unregister();
		},
	};
}

export function killGroup(pid: number | undefined): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, 'SIGKILL');
	} catch {
		// gone already
	}
}

let stopping: Promise<void> | undefined;

/**
 * Stops everything still registered, newest first. A second call while one runs (a signal
 * during the run's own cleanup) waits for the same one.
 */
export function stopAll(): Promise<void> {
	stopping ??= (async () => {
		while (registered.length > 0) {
			const next = registered.pop() as Stoppable;
			try {
				await next.stop();
			} catch (error) {
				console.error(`  could not stop ${next.name}: ${(error as Error).message}`);
				next.kill();
			}
		}
	})().finally(() => {
		stopping = undefined;
	});
	return stopping;
}

let installed = false;

/** Ctrl+C / SIGTERM stop everything, then exit; a plain exit kills what is left. */
export function installExitHandlers(): void {
	if (installed) return;
	installed = true;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			console.error(`\n${signal}: stopping Redis, Postgres, n8n and the sandbox`);
			void stopAll().finally(() => process.exit(130));
		});
	}
	process.once('exit', () => {
		for (const stoppable of registered.reverse()) stoppable.kill();
	});
}

/** Runs a command to completion, synchronously (for the exit path and short setup steps). */
export function runSync(
	command: string,
	args: string[],
): { status: number | null; output: string } {
	const result = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000 });
	return {
		status: result.status,
		output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
	};
}
