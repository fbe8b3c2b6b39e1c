/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * The fault-injection soak, a pass/fail check: `SOAK_SIZE=1000 npx tsx test/soak/run.ts`
 * (npm run soak; it runs the build, dist/). Course upserts, assignment operations and xAPI
 * statements, SOAK_SIZE of each, each run as an n8n workflow with Continue On Fail while 20 % of
 * the answers are faults; then every item is judged against the sandbox's and the record store's
 * final state. Exits 1 if anything was lost or duplicated, 2 if it could not run.
 */
import { createCredentialsHelper } from '../../harness/engine';
import { lrsInstalled } from '../../harness/lrsStore';
import { LMS_CREDENTIAL, lmsCredentialData } from '../../harness/nodes';
import { packageSource } from '../../harness/source';
import { startSandbox } from '../../sandbox/server';
import type { SandboxOptions } from '../../sandbox/server';
import { soakAssignments } from './assignments';
import { soakCourses } from './courses';
import { soakStatements } from './statements';
import { totalFaults, type SoakTally } from './tally';

const SIZE = Number(process.env.SOAK_SIZE ?? 1000);
const FAULT_RATE = 0.2;
/** The sandbox throttle and the credential's requestsPerMinute, scaled up so that the soak finishes in minutes. */
const REQUESTS_PER_MINUTE = 6000;
const TRANSACTION_DELAY_MS = 200;

/** 20 % of API answers: 429 (half with Retry-After), 500/502/503, dropped connections (half after the write was applied), expired tokens. */
const SANDBOX_FAULTS: Partial<SandboxOptions> = {
	fault429: 0.06,
	fault5xx: 0.06,
	faultDrop: 0.05,
	faultExpireToken: 0.03,
};

function tallyRow(tally: SoakTally): Record<string, string | number> {
	return {
		kind: tally.kind,
		sent: tally.sent,
		delivered: tally.delivered,
		'reported errors': tally.reportedErrors,
		'…of which applied anyway': tally.reportedButApplied,
		lost: tally.lost,
		duplicated: tally.duplicated,
		requests: tally.requests,
		'faults injected': totalFaults(tally),
		s: tally.seconds,
	};
}

/** What each kind must show; a lost or duplicated item fails the soak, the others are reported. */
function tallyChecks(tally: SoakTally): Array<{ what: string; pass: boolean }> {
	const accounted = tally.delivered + tally.reportedErrors;
	return [
		{ what: `${tally.kind}: lost ${tally.lost} (0)`, pass: tally.lost === 0 },
		{
			what: `${tally.kind}: duplicated ${tally.duplicated} (0)`,
			pass: tally.duplicated === 0,
		},
		{
			what: `${tally.kind}: delivered once or reported ${accounted} (${tally.sent})`,
			pass: accounted === tally.sent,
		},
		{
			what: `${tally.kind}: error items with a clear message ${tally.reportedErrors - tally.unclearErrors} (${tally.reportedErrors})`,
			pass: tally.unclearErrors === 0,
		},
	];
}

function describeTally(tally: SoakTally, refreshesTokens: boolean): string[] {
	const faults = Object.entries(tally.faults)
		.map(([fault, count]) => `${fault} ${count}`)
		.join(', ');
	const lines = [`${tally.kind}: faults injected — ${faults || 'none'}`];
	for (const remark of tally.remarks) lines.push(`${tally.kind}: ${remark}`);
	for (const sample of tally.errorSamples)
		lines.push(`${tally.kind}: ${sample.count} × error "${sample.message}"`);
	const unauthorized = tally.errorStatuses['401'] ?? 0;
	if (unauthorized > 0 && refreshesTokens) {
		lines.push(
			`${tally.kind}: ${unauthorized} of the ${tally.reportedErrors} error items are 401s. The log shows how: a token is revoked while requests carrying it are in flight; each of them gets 401, n8n fetches a new token and repeats the request once, and when another revocation has hit the new token meanwhile the repeat gets 401 too and the item fails. The soak revokes a token on ${(SANDBOX_FAULTS.faultExpireToken ?? 0) * 100} % of requests, far more often than tokens expire in real use, but a 401 means nothing was processed: the node could safely re-authenticate and repeat more than once (as it does for 429), which would turn these into deliveries.`,
		);
	}
	return lines;
}

async function main(): Promise<void> {
	if (!Number.isInteger(SIZE) || SIZE < 10)
		throw new Error(
			`SOAK_SIZE must be a whole number of at least 10, got ${process.env.SOAK_SIZE}`,
		);
	const source = packageSource();
	const started = Date.now();
	console.log(
		`Soak: ${SIZE} of each kind, ${FAULT_RATE * 100} % of answers faulted (package from ${source})`,
	);
	const tallies: SoakTally[] = [];
	const sandbox = await startSandbox({
		...SANDBOX_FAULTS,
		rateLimitPerMinute: REQUESTS_PER_MINUTE,
		transactionDelayMs: TRANSACTION_DELAY_MS,
		latencyMs: 20,
		latencyJitterMs: 10,
		seed: 42,
		clientId: 'soak-client',
	});
	try {
		const context = {
			sandbox,
			credentialsHelper: createCredentialsHelper(
				{ [LMS_CREDENTIAL]: lmsCredentialData(sandbox, REQUESTS_PER_MINUTE) },
				source,
			),
			source,
			transactionDelayMs: TRANSACTION_DELAY_MS,
		};
		const courses = await soakCourses(context, SIZE);
		console.log(`  courses done in ${courses.tally.seconds} s`);
		tallies.push(courses.tally);
		tallies.push(await soakAssignments(context, SIZE, courses.storedIds));
		console.log(`  assignments done in ${tallies[1].seconds} s`);
	} finally {
		await sandbox.close();
	}
	const notes: string[] = [];
	if (lrsInstalled()) {
		tallies.push(await soakStatements(SIZE, FAULT_RATE, source));
		console.log(`  statements done in ${tallies[2].seconds} s`);
	} else {
		notes.push(
			'The record store is not installed (scripts/install-lrs.sh): the statements part was skipped.',
		);
	}
	const checks = tallies.flatMap(tallyChecks);
	// The first two tallies are the LMS ones, whose credential fetches new tokens.
	notes.push(...tallies.flatMap((tally, index) => describeTally(tally, index < 2)));
	console.log(`\nFault-injection soak (${Math.round((Date.now() - started) / 1000)} s)`);
	console.table(tallies.map(tallyRow));
	for (const { what, pass } of checks) console.log(`${pass ? 'PASS' : 'MISS'}  ${what}`);
	for (const note of notes) console.log(`- ${note}`);
	const broken = tallies.filter((tally) => tally.lost > 0 || tally.duplicated > 0);
	console.log(
		broken.length === 0
			? '\nNothing lost or duplicated.'
			: `\nLOST OR DUPLICATED in: ${broken.map((tally) => tally.kind).join(', ')}`,
	);
	process.exitCode = broken.length === 0 ? 0 : 1;
}

main().then(
	() => process.exit(process.exitCode ?? 0),
	(error: unknown) => {
		console.error(error);
		process.exit(2);
	},
);
