/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/** `npx tsx sandbox/cli.ts [--port 8787] [--latency-ms 50] ...`: runs the sandbox until SIGINT/SIGTERM. */

import { ADMIN_PATHS } from './admin';
import {
	CLI_DEFAULT_PORT,
	describeFlags,
	OptionError,
	optionsFromArgs,
	optionsFromEnv,
	type SandboxOptions,
} from './options';
import { startSandbox, TOKEN_PATH } from './server';

const USAGE = `Local LMS API sandbox.

Usage: npx tsx sandbox/cli.ts [flags]
Each flag can also be set by its environment variable; flags win.

${describeFlags()}
`;

async function main(): Promise<void> {
	let options: Partial<SandboxOptions>;
	try {
		const parsed = optionsFromArgs(process.argv.slice(2));
		if (parsed.help) {
			process.stdout.write(USAGE);
			return;
		}
		options = { port: CLI_DEFAULT_PORT, ...optionsFromEnv(process.env), ...parsed.options };
	} catch (error) {
		if (!(error instanceof OptionError)) throw error;
		process.stderr.write(`${error.message}\n`);
		process.exitCode = 2;
		return;
	}

	const sandbox = await startSandbox(options);
	const { clientId, clientSecret, url } = sandbox;
	const tokenUrl = `${url}${TOKEN_PATH}?client_id=${encodeURIComponent(clientId)}&client_secret=${encodeURIComponent(clientSecret)}&grant_type=client_credentials`;
	process.stdout.write(
		[
			`LMS API sandbox listening on ${url}`,
			`  client id:      ${clientId}`,
			`  client secret:  ${clientSecret}`,
			`  token:          POST ${tokenUrl}`,
			`  xAPI push:      ${sandbox.lrsEndpoint} (OAuth 2 App ${sandbox.lrsClientId} / ${sandbox.lrsClientSecret})`,
			'  admin paths:',
			...ADMIN_PATHS.map((line) => `    ${line}`),
			'Stop with Ctrl+C.',
			'',
		].join('\n'),
	);

	const stop = (signal: NodeJS.Signals) => {
		process.stdout.write(`${signal}: stopping the sandbox\n`);
		sandbox.close().then(
			() => process.exit(0),
			(error: Error) => {
				process.stderr.write(`${error.message}\n`);
				process.exit(1);
			},
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
