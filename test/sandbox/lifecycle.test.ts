/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { spawn } from 'child_process';
import { join } from 'path';
import { ManualClock } from '../../sandbox/clock';
import { COURSES, DOCUMENTED_HEADERS, get, issueToken, startTestSandbox } from './helpers';

const ROOT = join(__dirname, '..', '..');

describe('latency and shutdown', () => {
	it('holds each answer back by the configured latency, with jitter inside its bounds', async () => {
		const clock = new ManualClock();
		const sandbox = await startTestSandbox({ latencyMs: 150, latencyJitterMs: 50 }, clock);
		try {
			const tokenAnswer = issueToken(sandbox);
			clock.advance((await clock.whenTimers(1))[0]);
			const token = await tokenAnswer;

			const delays: number[] = [];
			for (let index = 0; index < 5; index++) {
				let answered = false;
				const answer = get(sandbox, COURSES, token).then((result) => {
					answered = true;
					return result;
				});
				const [delay] = await clock.whenTimers(1);
				delays.push(delay);
				expect(delay).toBeGreaterThanOrEqual(100);
				expect(delay).toBeLessThanOrEqual(200);
				expect(Number.isInteger(delay)).toBe(true);

				clock.advance(delay - 1);
				// Still waiting: the request is logged, unanswered, and its timer pending.
				expect(clock.pendingDelays).toEqual([delay]);
				expect(sandbox.requests().at(-1)?.status).toBeNull();
				expect(answered).toBe(false);

				clock.advance(1);
				expect(clock.pendingDelays).toEqual([]);
				expect((await answer).status).toBe(200);
			}
			// The jitter moves the latency around, not always by the same amount.
			expect(new Set(delays).size).toBeGreaterThan(1);
		} finally {
			await sandbox.close();
		}
	});

	it('ends the latency waits on close, so a waiting request fails instead of holding it open', async () => {
		const clock = new ManualClock();
		const sandbox = await startTestSandbox({ latencyMs: 5000 }, clock);
		const pending = fetch(`${sandbox.url}${COURSES}`, { headers: DOCUMENTED_HEADERS }).then(
			() => 'answered',
			() => 'failed',
		);
		await clock.whenTimers(1);
		// The clock never moves: close() can only finish by cutting the wait short.
		await sandbox.close();
		expect(clock.pendingDelays).toEqual([]);
		expect(await pending).toBe('failed');
	});
});

describe('command line', () => {
	it('prints address and credentials, serves, and stops on SIGTERM', async () => {
		const tsxCli = require.resolve('tsx/cli', { paths: [ROOT] });
		const child = spawn(
			process.execPath,
			[
				tsxCli,
				'sandbox/cli.ts',
				'--port',
				'0',
				'--client-id',
				'cli-client',
				'--max-page-size',
				'7',
			],
			{
				cwd: ROOT,
				env: { ...process.env, SANDBOX_CLIENT_SECRET: 'cli-secret', SANDBOX_MAX_PAGE_SIZE: '9' },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
		try {
			let output = '';
			const url = await new Promise<string>((resolve, reject) => {
				child.once('exit', (code) =>
					reject(new Error(`exited (${code}) before printing its address: ${output}`)),
				);
				child.stdout.on('data', (chunk: Buffer) => {
					output += chunk.toString();
					const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
					if (match && output.includes('/__sandbox/health')) resolve(match[1]);
				});
			});
			expect(output).toContain('cli-client');
			expect(output).toContain('cli-secret');
			const token = await fetch(
				`${url}/api/oauth/token?client_id=cli-client&client_secret=cli-secret&grant_type=client_credentials`,
				{
					method: 'POST',
				},
			);
			expect(token.status).toBe(200);
			// The flag wins over the environment variable.
			const config = (await (await fetch(`${url}/__sandbox/config`)).json()) as {
				options: { maxPageSize: number };
			};
			expect(config.options.maxPageSize).toBe(7);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	});
});
