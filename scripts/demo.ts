/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
/**
 * `npm run demo`: runs the example workflows of examples/ through n8n's execution engine,
 * with the package as built (dist/), against a local imitation of the LMS API and a real
 * learning record store, and checks every claim it prints against their state.
 * Exits 0 when every check passed.
 */
import { createCredentialsHelper } from '../harness/engine';
import { loadBuiltPackage } from './demo/build';
import { Checklist } from './demo/checks';
import { EXAMPLES_DIR } from './demo/examples';
import type { DemoContext } from './demo/run';
import { SANDBOX_SETTINGS, startServices, type Services } from './demo/services';
import { catalogSync } from './demo/steps/catalogSync';
import { completions, redelivery } from './demo/steps/completions';
import { newHire } from './demo/steps/newHire';
import { rosterReview } from './demo/steps/rosterReview';
import { ROSTER_NIGHTS_DIR, rosterSync } from './demo/steps/rosterSync';
import { seedRetiredCourses } from './demo/steps/seedRetiredCourses';
import { activateChatRelay, relayToChat } from './demo/steps/statementsToChat';
import { summarize } from './demo/summary';
import { captureWebhookReplies } from './demo/webhookReplies';

/** The whole demo normally takes about a minute; past this something hangs. */
const DEMO_TIMEOUT_MS = 5 * 60 * 1000;

let services: Services | undefined;

async function stopServices(): Promise<void> {
	const running = services;
	services = undefined;
	await running?.stop();
}

async function demo(): Promise<Checklist> {
	const checks = new Checklist();
	// n8n 2.x reads files only inside allowed folders (~/.n8n-files by default): allow the examples' folder.
	process.env.N8N_RESTRICT_FILE_ACCESS_TO = `${EXAMPLES_DIR};${ROSTER_NIGHTS_DIR}`;
	captureWebhookReplies();

	console.log(
		"Learning platform demo: the example workflows, run by n8n's execution engine with the built package\n",
	);
	const loaded = loadBuiltPackage();
	console.log(`   package build           dist/: ${loaded.length} nodes and credentials loaded`);
	services = await startServices();
	const { sandbox, lrs, chat } = services;
	const settings = SANDBOX_SETTINGS;
	console.log(
		`   LMS API sandbox         ${sandbox.url}  (${settings.rateLimitPerMinute} requests/min per client, ` +
			`${settings.latencyMs} ms latency, transactions finish after ${settings.transactionDelayMs} ms)`,
	);
	console.log(`   learning record store   ${lrs.endpoint}  (xapi-statements, in memory)`);
	console.log(`   team chat stand-in      ${chat.url}`);

	const context: DemoContext = {
		services,
		checks,
		credentialsHelper: createCredentialsHelper(services.credentials, 'dist'),
		staticData: {},
	};
	const night1 = await catalogSync(context, 1);
	await seedRetiredCourses(context);
	const night2 = await catalogSync(context, 2);
	const hire = await newHire(context, 3);
	const relay = await activateChatRelay(context, 4);
	const done = await completions(context, 5);
	await redelivery(context, done.completions);
	const chatted = await relayToChat(context, relay, done.completions, 6);
	await rosterSync(context, 1, 7);
	await rosterSync(context, 2, 8);
	await rosterReview(context, 9);

	summarize(context, { nights: [night1, night2], hire, completions: done, chat: chatted });
	return checks;
}

async function main(): Promise<number> {
	const started = Date.now();
	const watchdog = setTimeout(() => {
		console.error(`\nDEMO FAILED: still running after ${DEMO_TIMEOUT_MS / 1000} s`);
		void stopServices().finally(() => process.exit(1));
	}, DEMO_TIMEOUT_MS);
	try {
		const checks = await demo();
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		if (checks.failed.length === 0) {
			console.log(`\nDEMO PASSED: all ${checks.checks.length} checks passed in ${seconds} s`);
			return 0;
		}
		console.error(
			`\nDEMO FAILED: ${checks.failed.length} of ${checks.checks.length} checks failed (${seconds} s):`,
		);
		for (const check of checks.failed) console.error(`   ✗ ${check.label}`);
		return 1;
	} catch (error) {
		console.error(`\nDEMO FAILED: ${(error as Error).stack ?? String(error)}`);
		return 1;
	} finally {
		clearTimeout(watchdog);
		await stopServices();
	}
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		console.error(`\n${signal}: stopping the sandbox and the record store`);
		void stopServices().finally(() => process.exit(130));
	});
}

void main().then((code) => process.exit(code));
