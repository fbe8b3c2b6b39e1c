/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import { createCredentialsHelper } from '../../harness/engine';
import type { PackageSource } from '../../harness/nodeTypes';
import { getStatement, listAllStatements, lrsInstalled, startLrs } from '../../harness/lrsStore';
import { XAPI_CREDENTIAL, xapiSendNode } from '../../harness/nodes';
import { firstErrorMessage, runSingleNode } from '../../harness/runNode';
import { check, median, round, type TargetCheck } from '../lib/stats';
import { makeStatement } from '../../harness/statements';
import { requirePackageModule } from '../../harness/source';
import type { Row } from '../lib/table';
import type { BenchmarkOutcome } from './types';

const STATEMENTS = Number(process.env.BENCH_XAPI_STATEMENTS ?? 10_000);
const BATCH_SIZES = [500, 1];
// Validation has to keep up with the fastest send measured (batchSize 500 to a record store on
// loopback, bench/RESULTS.md); ARCHITECTURE.md keeps the figure of the validator against zod (settled).
const VALIDATION_TARGET_PER_SEC = 1_110;
const VALIDATION_ROUNDS = 5;

type ValidateStatement = (statement: unknown) => { ok: boolean };

type SendRun = Awaited<ReturnType<typeof sendRun>>;

async function sendRun(batchSize: number, source: PackageSource) {
	const lrs = await startLrs(); // a fresh, empty store for each batch size
	try {
		const helper = createCredentialsHelper(
			{ [XAPI_CREDENTIAL]: { endpoint: lrs.endpoint, authentication: 'token', token: lrs.token } },
			source,
		);
		const tag = `xapi-bench-${batchSize}`;
		const items = Array.from({ length: STATEMENTS }, (_, i) => ({
			statement: makeStatement(tag, i),
		}));
		const run = await runSingleNode({
			node: xapiSendNode(batchSize),
			items,
			source,
			credentialsHelper: helper,
		});
		if (run.error) throw new Error(`The xAPI node stopped the workflow: ${run.error}`);
		const requests = lrs.requests.filter(
			(request) => request.method === 'POST' && request.url.startsWith('/xAPI/statements'),
		).length;
		const stored = await listAllStatements(lrs.storeEndpoint, lrs.token);
		// This store's `more` paging can skip statements stored in the same instant; before counting
		// one as missing, ask the store for it by id.
		for (const item of run.items) {
			const id = String(item.json.statementId ?? '');
			if (id && !stored.has(id)) {
				const found = await getStatement(lrs.storeEndpoint, lrs.token, id);
				if (found) stored.set(id, found);
			}
		}
		return {
			batchSize,
			statements: STATEMENTS,
			requests,
			nodeMs: run.executionMs,
			statementsPerSec: round(STATEMENTS / (run.executionMs / 1000), 0),
			errorItems: run.errorItems.length,
			storedInLrs: stored.size,
			firstError: firstErrorMessage(run),
		};
	} finally {
		await lrs.stop();
	}
}

/** Validation alone: varied statements, several rounds, the median rate. */
function validationThroughput(source: PackageSource) {
	const { validateStatement } = requirePackageModule<{ validateStatement: ValidateStatement }>(
		'nodes/XApi/validation',
		source,
	);
	const statements = Array.from({ length: 10_000 }, (_, i) =>
		makeStatement('validation', i, { withId: i % 2 === 0 }),
	);
	for (const statement of statements.slice(0, 2000)) validateStatement(statement); // warm the JIT
	const rates: number[] = [];
	let valid = 0;
	for (let round_ = 0; round_ < VALIDATION_ROUNDS; round_++) {
		valid = 0;
		const started = process.hrtime.bigint();
		for (const statement of statements) if (validateStatement(statement).ok) valid++;
		const seconds = Number(process.hrtime.bigint() - started) / 1e9;
		rates.push(statements.length / seconds);
	}
	return {
		perSec: round(median(rates), 0),
		rounds: rates.map((rate) => round(rate, 0)),
		valid,
		total: statements.length,
	};
}

export async function runXapiBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	const validation = validationThroughput(source);
	console.log(
		`  validation: ${validation.perSec} statements/s (${validation.valid}/${validation.total} valid)`,
	);
	const checks: TargetCheck[] = [
		check(
			'validateStatement throughput',
			`≥ ${VALIDATION_TARGET_PER_SEC.toLocaleString('en-US')} statements/s`,
			`${validation.perSec.toLocaleString('en-US')}/s`,
			validation.perSec >= VALIDATION_TARGET_PER_SEC,
		),
		check(
			'generated statements judged valid',
			`${validation.total}`,
			`${validation.valid}`,
			validation.valid === validation.total,
		),
	];
	const rows: Row[] = [];
	const sends: SendRun[] = [];
	const notes: string[] = [];
	if (!lrsInstalled()) {
		notes.push(
			'The record store is not installed (scripts/install-lrs.sh), so the send runs were skipped.',
		);
	} else {
		for (const batchSize of BATCH_SIZES) {
			const result = await sendRun(batchSize, source);
			console.log(
				`  xAPI send, batchSize ${batchSize}: ${result.requests} requests, ${round(result.nodeMs / 1000, 1)} s, ${result.storedInLrs} stored`,
			);
			sends.push(result);
			if (result.firstError)
				notes.push(`batchSize ${batchSize}: first item error "${result.firstError}"`);
		}
		for (const run of sends) {
			rows.push({
				'batch size': run.batchSize,
				statements: run.statements,
				requests: run.requests,
				'node run s': round(run.nodeMs / 1000, 2),
				'statements/s': run.statementsPerSec,
				'failed items': run.errorItems,
				'stored in the LRS': run.storedInLrs,
			});
			checks.push(
				check(
					`every statement stored, batchSize ${run.batchSize}`,
					`${run.statements}`,
					`${run.storedInLrs}`,
					run.storedInLrs === run.statements && run.errorItems === 0,
				),
			);
		}
		const [batched, single] = sends;
		if (batched && single) {
			rows.push({
				'batch size': '500 vs 1',
				statements: '',
				requests: `${round(single.requests / Math.max(1, batched.requests), 0)}× fewer`,
				'node run s': `${round(single.nodeMs / batched.nodeMs, 1)}× faster`,
				'statements/s': '',
				'failed items': '',
				'stored in the LRS': '',
			});
		}
	}
	rows.push({
		'batch size': 'validateStatement alone',
		statements: validation.total,
		requests: '',
		'node run s': '',
		'statements/s': validation.perSec,
		'failed items': '',
		'stored in the LRS': '',
	});
	return {
		title: 'xAPI statements',
		method: `${STATEMENTS.toLocaleString('en-US')} statements (varied: actor, verb, activity with definition, half with a result, a third with a context) sent by the xAPI node in JSON input mode with options.batchSize 500 and 1, each against a fresh in-memory Learning Locker statement service (xapi-statements) on loopback; requests counted by the recording proxy in front of it, the store then listed to count what it holds. Validation: validateStatement on 10,000 varied statements, ${VALIDATION_ROUNDS} rounds after a warm-up, median rate.`,
		rows,
		checks,
		details: { validation, sends },
		notes,
	};
}
