/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * Statements through the platform's xAPI push endpoint with OAuth2 at the default settings:
 * `npx tsx bench/xapiPush.ts` (after `npx n8n-node build`; about 200 s for 200 statements).
 *
 * The sandbox (in its own process) serves the push endpoint at the platform's documented budget,
 * 10 requests per 10 s per organization (a sliding window, 429 with Retry-After beyond it). The
 * xAPI node sends BENCH_PUSH_STATEMENTS statements (200) in one execution, each with an
 * idempotency key, the credential left at its defaults (Requests per Minute 60, no batch size:
 * one statement per request), Continue On Fail on so that every failing item is counted.
 * Measured from the sandbox's log and state: statements stored, 429s drawn, the most requests
 * granted in any 10 s, and the share of the budget used = accepted requests / (10 per 10 s over
 * the time from the first accepted request to the last, plus one interval). Prints a table,
 * writes the "xapiPush" section of bench/results.json and regenerates bench/RESULTS.md
 * (BENCH_PUSH_RESULTS=skip to leave them).
 */
import type { IDataObject } from 'n8n-workflow';

import { createCredentialsHelper } from '../harness/engine';
import type { LoggedRequest } from '../sandbox/server';
import { machineInfo } from './lib/machine';
import { XAPI_CREDENTIAL, xapiSendNode } from '../harness/nodes';
import { runSingleNode } from '../harness/runNode';
import { startBenchSandbox } from './lib/sandboxHandle';
import { packageSource } from '../harness/source';
import { check, round } from './lib/stats';
import { printSection, type Row } from './lib/table';
import type { BenchmarkOutcome } from './benchmarks/types';
import { recordRun } from './report/write';
import { runScript } from './lib/script';

const STATEMENTS = Number(process.env.BENCH_PUSH_STATEMENTS ?? 200);
const WINDOW_MS = 10_000;
const PER_WINDOW = 10;
const STATEMENTS_PATH = '/api/lrs/v1/xapi/statements';
const TOKEN_PATH = '/api/lrs/v1/xapi/oauth2/token';
const CLIENT_ID = 'bench-push-client';
const CLIENT_SECRET = 'bench-push-secret-0123456789';

function busiestWindow(requests: LoggedRequest[]): number {
	const times = requests.map((request) => Date.parse(request.time)).sort((a, b) => a - b);
	let most = 0;
	for (let i = 0, j = 0; j < times.length; j++) {
		while (times[j] - times[i] >= WINDOW_MS) i++;
		most = Math.max(most, j - i + 1);
	}
	return most;
}

function statement(n: number): IDataObject {
	return {
		actor: { name: `Learner ${n}`, mbox: `mailto:learner${n}@example.com` },
		verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
		object: {
			objectType: 'Activity',
			id: `https://learn.example.com/courses/bench-${n}`,
			definition: {
				type: 'http://adlnet.gov/expapi/activities/course',
				name: { 'en-US': `Course ${n}` },
			},
		},
		result: { completion: true },
	};
}

async function main(): Promise<void> {
	const started = Date.now();
	const source = packageSource();
	const machine = machineInfo();
	const sandbox = await startBenchSandbox({
		lrsClientId: CLIENT_ID,
		lrsClientSecret: CLIENT_SECRET,
		lrsRatePer10Sec: PER_WINDOW,
	});
	try {
		const credentialsHelper = createCredentialsHelper(
			{
				[XAPI_CREDENTIAL]: {
					endpoint: `${sandbox.url}/api/lrs/v1/xapi`,
					authentication: 'oauth2',
					clientId: CLIENT_ID,
					clientSecret: CLIENT_SECRET,
					accessToken: '',
				},
			},
			source,
		);
		const items = Array.from({ length: STATEMENTS }, (_, n) => ({
			statement: statement(n),
			key: `bench-completion-${n}`,
		}));
		const run = await runSingleNode({
			node: xapiSendNode(undefined, { idempotencyKey: '={{ $json.key }}' }),
			items,
			source,
			credentialsHelper,
		});
		const log = await sandbox.requests();
		const state = await sandbox.state();
		const posts = log.filter((request) => request.path === STATEMENTS_PATH);
		const accepted = posts.filter((request) => request.status === 200);
		const throttled = posts.filter((request) => request.status === 429).length;
		const times = accepted.map((request) => Date.parse(request.time)).sort((a, b) => a - b);
		const spanMs =
			times.length > 1
				? times[times.length - 1] - times[0] + WINDOW_MS / PER_WINDOW
				: WINDOW_MS / PER_WINDOW;
		const budgetShare = accepted.length / ((spanMs / WINDOW_MS) * PER_WINDOW);
		const stored = state.lrs.statements.length;
		const busiest = busiestWindow(accepted);
		const tokens = log.filter((request) => request.path === TOKEN_PATH).length;

		const rows: Row[] = [
			{
				statements: STATEMENTS,
				stored,
				'error items': run.errorItems.length,
				'statement requests': posts.length,
				'429s drawn': throttled,
				'token requests': tokens,
				'most granted in 10 s': busiest,
				'share of the budget': round(budgetShare, 3),
				'node run (s)': round(run.executionMs / 1000, 1),
			},
		];
		const checks = [
			check(
				'statements stored, OAuth2 defaults',
				`${STATEMENTS}`,
				`${stored}`,
				stored === STATEMENTS,
			),
			check(
				'429s surfaced as errors',
				'0',
				`${run.errorItems.length}`,
				run.errorItems.length === 0 && !run.error,
			),
			check(
				'429s drawn',
				`≤ 1 per 100 requests (${Math.ceil(STATEMENTS / 100)})`,
				`${throttled}`,
				throttled <= Math.ceil(STATEMENTS / 100),
			),
			check(
				'share of the 10-per-10-s budget used',
				'≥ 0.95',
				round(budgetShare, 3).toFixed(3),
				budgetShare >= 0.95,
			),
		];
		const outcome: BenchmarkOutcome = {
			title: 'xAPI push endpoint (OAuth2) at the default settings',
			method: `${STATEMENTS} statements, each with an idempotency key, sent by the xAPI node in one execution through the sandbox's push endpoint (\`/api/lrs/v1/xapi/statements\`, OAuth2 client credentials), which allows the platform's documented 10 requests per 10 s per organization (a sliding window; 429 with Retry-After beyond it). The credential is at its defaults (Requests per Minute 60, which the node paces as one request every 1.034 s so that any 10 s holds at most 10 even when a request arrives a little early; no batch size, so one statement per request) and Continue On Fail is on, so that every failing item is counted. Stored = statements in the sandbox's store; 429s drawn = 429 answers in its log (the node waits them out); share of the budget = accepted requests / (10 per 10 s over the time from the first accepted request to the last, plus one interval); most granted in 10 s = the busiest 10-s window of accepted requests.`,
			rows,
			checks,
			details: {
				statements: STATEMENTS,
				stored,
				throttled,
				busiest,
				budgetShare,
				tokens,
				executionMs: run.executionMs,
			},
		};
		// BENCH_PUSH_RESULTS=skip prints the figures and leaves results.json as it is.
		if (process.env.BENCH_PUSH_RESULTS === 'skip') printSection(outcome.title, rows, checks);
		else recordRun('xapiPush', outcome, { started, machine, source });
	} finally {
		await sandbox.close();
	}
}

runScript(main, 2);
