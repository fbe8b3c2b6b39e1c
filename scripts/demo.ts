/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
/**
 * `npm run demo`: runs the three example workflows of examples/ through n8n's execution engine,
 * with the package as built (dist/), against a local imitation of the LMS API and a real
 * learning record store, and checks every claim it prints against their state.
 * Exits 0 when every check passed.
 */
import { createCredentialsHelper } from '../harness/engine';
import { Checklist } from './demo/checks';
import { EXAMPLES_DIR } from './demo/examples';
import type { DemoContext } from './demo/run';
import { SANDBOX_SETTINGS, startServices, type Services } from './demo/services';
import { catalogSync } from './demo/steps/catalogSync';
import { completions } from './demo/steps/completions';
import { newHire } from './demo/steps/newHire';
import { seedRetiredCourses } from './demo/steps/seedRetiredCourses';
import { activateChatRelay, relayToChat } from './demo/steps/statementsToChat';
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
	process.env.N8N_RESTRICT_FILE_ACCESS_TO = EXAMPLES_DIR;
	captureWebhookReplies();

	console.log('Learning platform demo: the example workflows, run by n8n\'s execution engine with the built package\n');
	services = await startServices();
	const { sandbox, lrs, chat } = services;
	console.log(
		`   LMS API sandbox      ${sandbox.url}  (${SANDBOX_SETTINGS.rateLimitPerMinute} requests/min per client, ` +
			`${SANDBOX_SETTINGS.latencyMs} ms latency, transactions finish after ${SANDBOX_SETTINGS.transactionDelayMs} ms)`,
	);
	console.log(`   learning record store ${lrs.endpoint}  (xapi-statements, in memory)`);
	console.log(`   team chat stand-in   ${chat.url}`);

	const context: DemoContext = { services, checks, credentialsHelper: createCredentialsHelper(services.credentials, 'dist') };
	await seedRetiredCourses(context);
	const night1 = await catalogSync(context, 1);
	const night2 = await catalogSync(context, 2);
	const hire = await newHire(context, 3);
	console.log('\n4. Learners finish courses');
	const relay = await activateChatRelay(context);
	const done = await completions(context, 4);
	const chatted = await relayToChat(context, relay, done.completions, 5);

	const state = sandbox.state();
	const transactionStates = state.transactions.reduce<Record<string, number>>((count, transaction) => {
		count[transaction.status] = (count[transaction.status] ?? 0) + 1;
		return count;
	}, {});
	const requests = sandbox.requests();
	console.log('\nSummary');
	console.log(`   courses pushed      night 1: ${night1.upserted} upserted, ${night1.archived} archived; night 2: ${night2.upserted} upserted, ${night2.archived} archived`);
	console.log(
		`   transactions        ${state.transactions.length} accepted by the platform: ` +
			Object.entries(transactionStates).map(([status, count]) => `${count} ${status}`).join(', '),
	);
	console.log(`   assignments         ${hire.assigned} made (due ${hire.dueDate}), ${hire.refused} refused (unknown learner), ${done.completed} completions`);
	console.log(`   xAPI statements     ${done.statements} recorded, ${chatted.pickedUp} picked up by the trigger, ${chatted.messages} chat messages`);
	console.log(
		`   LMS API             ${requests.length} requests, ${state.tokensIssued} access token(s) issued, ` +
			`${requests.filter((request) => request.status === 429).length} refused by the throttle`,
	);
	checks.check(
		'the only failed transaction is the refused hire',
		(transactionStates.failed ?? 0) === 1 && state.transactions.filter((t) => t.status === 'failed').every((t) => t.external_id === 'onboarding-101'),
		JSON.stringify(transactionStates),
	);
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
		console.error(`\nDEMO FAILED: ${checks.failed.length} of ${checks.checks.length} checks failed (${seconds} s):`);
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
