/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { spawn } from 'child_process';
import { join } from 'path';
import { COURSES, get, issueToken, sleep, startTestSandbox } from './helpers';

const ROOT = join(__dirname, '..', '..');

describe('latency and shutdown', () => {
	it('adds the configured latency, with jitter inside its bounds', async () => {
		const sandbox = await startTestSandbox({ latencyMs: 150, latencyJitterMs: 50 });
		try {
			const token = await issueToken(sandbox);
			for (let index = 0; index < 3; index++) {
				const started = Date.now();
				expect((await get(sandbox, COURSES, token)).status).toBe(200);
				const elapsed = Date.now() - started;
				expect(elapsed).toBeGreaterThanOrEqual(95);
				expect(elapsed).toBeLessThan(600);
			}
		} finally {
			await sandbox.close();
		}
	});

	it('closes promptly while a request is still waiting out its latency', async () => {
		const sandbox = await startTestSandbox({ latencyMs: 5000 });
		const pending = fetch(`${sandbox.url}${COURSES}`).then(
			() => 'answered',
			() => 'failed',
		);
		await sleep(100);
		const started = Date.now();
		await sandbox.close();
		expect(Date.now() - started).toBeLessThan(1000);
		expect(await pending).toBe('failed');
	});
});

describe('command line', () => {
	it('prints address and credentials, serves, and stops on SIGTERM', async () => {
		const tsxCli = require.resolve('tsx/cli', { paths: [ROOT] });
		const child = spawn(
			process.execPath,
			[tsxCli, 'sandbox/cli.ts', '--port', '0', '--client-id', 'cli-client'],
			{
				cwd: ROOT,
				env: { ...process.env, SANDBOX_CLIENT_SECRET: 'cli-secret' },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
		try {
			let output = '';
			const url = await new Promise<string>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`no address printed: ${output}`)), 15000);
				child.stdout.on('data', (chunk: Buffer) => {
					output += chunk.toString();
					const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
					if (match && output.includes('/__sandbox/health')) {
						clearTimeout(timer);
						resolve(match[1]);
					}
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
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	}, 20000);
});
