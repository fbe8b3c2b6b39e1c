/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * The fault-injection soak: `SOAK_SIZE=1000 npx tsx bench/soak.ts` (npm run soak).
 * Course upserts, assignment operations and xAPI statements, SOAK_SIZE of each, each run as an
 * n8n workflow with Continue On Fail while 20 % of the answers are faults; then every item is
 * judged against the sandbox's and the record store's final state. Exits non-zero if anything
 * was lost or duplicated.
 */
import { createCredentialsHelper } from '../harness/engine';
import { startSandbox } from '../sandbox/server';
import type { SandboxOptions } from '../sandbox/server';
import { LMS_CREDENTIAL, lmsCredentialData } from './lib/nodes';
import { machineInfo } from './lib/machine';
import { lrsInstalled } from './lib/lrsStore';
import { packageSource } from './lib/source';
import { check } from './lib/stats';
import type { TargetCheck } from './lib/stats';
import { printSection, type Row } from './lib/table';
import { commandLine } from './report/results';
import { writeResults } from './report/write';
import { soakAssignments } from './soak/assignments';
import { soakCourses } from './soak/courses';
import { soakStatements } from './soak/statements';
import { totalFaults, type SoakTally } from './soak/tally';

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

function tallyRow(tally: SoakTally): Row {
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

function tallyChecks(tally: SoakTally): TargetCheck[] {
	const accounted = tally.delivered + tally.reportedErrors;
	return [
		check(`${tally.kind}: lost`, '0', String(tally.lost), tally.lost === 0),
		check(`${tally.kind}: duplicated`, '0', String(tally.duplicated), tally.duplicated === 0),
		check(
			`${tally.kind}: delivered once or reported`,
			`${tally.sent}`,
			`${accounted}`,
			accounted === tally.sent,
		),
		check(
			`${tally.kind}: error items with a clear message`,
			`${tally.reportedErrors}`,
			`${tally.reportedErrors - tally.unclearErrors}`,
			tally.unclearErrors === 0,
		),
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
	const machine = machineInfo();
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
	const rows = tallies.map(tallyRow);
	const checks = tallies.flatMap(tallyChecks);
	// The first two tallies are the LMS ones, whose credential fetches new tokens.
	notes.push(...tallies.flatMap((tally, index) => describeTally(tally, index < 2)));
	const durationSec = Math.round((Date.now() - started) / 100) / 10;
	printSection(`Fault-injection soak (${durationSec} s)`, rows, checks);
	for (const note of notes) console.log(`- ${note}`);
	writeResults([
		{
			name: 'soak',
			ranAt: new Date(started).toISOString(),
			command: commandLine('bench/soak.ts'),
			durationSec,
			machine,
			source,
			outcome: {
				title: `Fault-injection soak (${SIZE} of each kind)`,
				method: `${SIZE} course upserts (one workflow run), ${SIZE} assignment operations (assign, then start, then complete, each phase one run, on the courses the sandbox holds; learners at example.com) and ${SIZE} xAPI statements (half one per request, half in batches of 25; half with their own id). Every node runs with Continue On Fail. The sandbox faults ${FAULT_RATE * 100} % of API answers (429 with and without Retry-After 6 %, 500/502/503 6 %, dropped connections 5 % — half after the write was applied —, expired tokens 3 %), throttle ${REQUESTS_PER_MINUTE}/min with the credential set to match, 20 ± 10 ms latency, transactions applying after ${TRANSACTION_DELAY_MS} ms. Statements go through bench/faultProxy.ts in front of the record store, faulting ${FAULT_RATE * 100} % of requests evenly across the same kinds (drops before or after the store saw the request; 401 for the expired token). Afterwards every item is judged against the final state: delivered (reported success and stored once as sent), reported (error item; "applied anyway" counts those the store holds regardless), lost (reported success, not stored as sent) or duplicated (stored more than once). Assignments: the status of the last successful operation per learner and course must be what the sandbox shows (if a later operation failed, its status is accepted too).`,
				rows,
				checks,
				details: {
					size: SIZE,
					faultRate: FAULT_RATE,
					requestsPerMinute: REQUESTS_PER_MINUTE,
					tallies,
				},
				notes,
			},
		},
	]);
	const broken = tallies.filter((tally) => tally.lost > 0 || tally.duplicated > 0);
	console.log(
		`\nWrote bench/results.json and bench/RESULTS.md. ${broken.length === 0 ? 'Nothing lost or duplicated.' : `LOST OR DUPLICATED in: ${broken.map((tally) => tally.kind).join(', ')}`}`,
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
