/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { spawn, type ChildProcess } from 'node:child_process';

/** A child process whose output is kept, for assertions and for failure reports. */
export interface CapturedProcess {
	child: ChildProcess;
	stdout(): string;
	stderr(): string;
	/** stdout and stderr, one after the other. */
	output(): string;
	/** Whether the process has exited (or was ended by a signal). */
	ended(): boolean;
	/** Resolves with the exit code (or the signal's name) once the process ended. */
	exited: Promise<number | string>;
}

export interface SpawnOptions {
	cwd?: string;
	env: NodeJS.ProcessEnv;
}

/**
 * Spawns `command` in its own process group (detached) so that stopping it
 * also stops anything it started itself.
 */
export function spawnCaptured(
	command: string,
	args: string[],
	options: SpawnOptions,
): CapturedProcess {
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
	const exited = new Promise<number | string>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
	});
	return {
		child,
		stdout: () => stdout,
		stderr: () => stderr,
		output: () => `${stdout}\n${stderr}`,
		ended: () => child.exitCode !== null || child.signalCode !== null,
		exited,
	};
}

/** SIGTERM to the whole process group, SIGKILL if it is still there after `graceMs`. */
export async function stopProcessGroup(process_: CapturedProcess, graceMs = 5000): Promise<void> {
	const pid = process_.child.pid;
	if (pid === undefined || process_.ended()) return;
	signalGroup(pid, 'SIGTERM');
	const timedOut = Symbol('timedOut');
	let timer: NodeJS.Timeout | undefined;
	const outcome = await Promise.race([
		process_.exited.catch(() => undefined),
		new Promise<typeof timedOut>(
			(resolve) => (timer = setTimeout(() => resolve(timedOut), graceMs)),
		),
	]);
	clearTimeout(timer);
	if (outcome === timedOut) {
		signalGroup(pid, 'SIGKILL');
		await process_.exited.catch(() => undefined);
	}
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch (error) {
		// ESRCH: the group is already gone.
		if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
	}
}

/** Resolves once `output()` contains a line matching `pattern`, with its match. */
export async function waitForOutput(
	process_: CapturedProcess,
	output: () => string,
	pattern: RegExp,
	timeoutMs: number,
): Promise<RegExpMatchArray> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const match = output().match(pattern);
		if (match) return match;
		const ended = process_.ended();
		if (ended || Date.now() > deadline) {
			const problem = ended
				? `process ended before printing ${pattern}`
				: `no ${pattern} within ${timeoutMs} ms`;
			throw new Error(`${problem}\nstdout:\n${process_.stdout()}\nstderr:\n${process_.stderr()}`);
		}
		await delay(50);
	}
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
