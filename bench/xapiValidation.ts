/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * Statements validated per second, the zod schemas against the hand-written validator they
 * replaced: `npx tsx bench/xapiValidation.ts` (about a minute).
 *
 * The baseline is the validator of commit BENCH_VALIDATION_BASE (10e4980, the last with the
 * hand-written schema language), taken from git into a temporary folder and run from its
 * TypeScript sources like the current one, in the same process. The zod schemas run twice, under
 * zod 3.25 (what n8n ships) and under zod 4 (the `zod4` devDependency). Two sets: 10,000 varied
 * valid statements (bench/lib/statements.ts) and the 950 statements of the conformance corpus
 * (607 of them invalid, so the cost of finding and wording problems counts). Rounds alternate
 * the validators, the median rate of each is kept, and ratios are taken within this run only.
 * The rates are then set against what the node can send: the platform's push endpoint takes 10
 * requests per 10 s, at most 50 statements a request; the fastest send measured against a record
 * store (bench/RESULTS.md, xAPI statements, batchSize 500 on loopback) stored 1,110 a second.
 * Prints a table, writes the "xapiValidation" section of bench/results.json and regenerates
 * bench/RESULTS.md (BENCH_VALIDATION_RESULTS=skip to leave them).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { machineInfo } from './lib/machine';
import { REPO_ROOT } from './lib/source';
import { makeStatement } from './lib/statements';
import { check, median, round } from './lib/stats';
import { printSection, type Row } from './lib/table';
import type { BenchmarkOutcome } from './benchmarks/types';
import { commandLine } from './report/results';

const BASE = process.env.BENCH_VALIDATION_BASE ?? '10e4980';
const ROUNDS = Number(process.env.BENCH_VALIDATION_ROUNDS ?? 7);
const PUSH_STATEMENTS_PER_SEC = (10 / 10) * 50;
const FASTEST_SEND_PER_SEC = 1110;

type Validate = (statement: unknown) => { ok: boolean };

/** The validator of `commit`, from git, as a module loaded from a temporary folder. */
function validatorAt(commit: string): Validate {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'xapi-validation-'));
	const archive = execFileSync('git', ['archive', commit, 'nodes/XApi/validation'], {
		cwd: REPO_ROOT,
	});
	execFileSync('tar', ['-x', '-C', folder], { input: archive });
	return (require(path.join(folder, 'nodes/XApi/validation')) as { validateStatement: Validate })
		.validateStatement;
}

/** The current validator, with `zod` resolved to `zodPackage` for its own imports. */
function currentValidator(zodPackage: 'zod' | 'zod4'): Validate {
	const folder = path.join(REPO_ROOT, 'nodes/XApi/validation');
	for (const key of Object.keys(require.cache))
		if (key.startsWith(folder)) delete require.cache[key];
	const moduleApi = Module as unknown as {
		_resolveFilename: (request: string, ...rest: unknown[]) => string;
	};
	const resolve = moduleApi._resolveFilename;
	moduleApi._resolveFilename = function (request, ...rest) {
		return resolve.call(
			this,
			request === 'zod' ? path.join(REPO_ROOT, 'node_modules', zodPackage) : request,
			...rest,
		);
	};
	try {
		return (require(folder) as { validateStatement: Validate }).validateStatement;
	} finally {
		moduleApi._resolveFilename = resolve;
	}
}

function ratePerSec(validate: Validate, statements: unknown[]): number {
	const started = process.hrtime.bigint();
	for (const statement of statements) validate(statement);
	return statements.length / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function main(): Promise<void> {
	const started = Date.now();
	const machine = machineInfo();
	const validators: Array<[string, Validate]> = [
		[`hand-written (${BASE})`, validatorAt(BASE)],
		['zod 3.25', currentValidator('zod')],
		['zod 4', currentValidator('zod4')],
	];
	const corpus = (
		JSON.parse(
			fs.readFileSync(
				path.join(REPO_ROOT, 'test/fixtures/xapi-conformance/statements.json'),
				'utf8',
			),
		) as Array<{ data: unknown }>
	).map((entry) => entry.data);
	const sets: Array<[string, unknown[]]> = [
		[
			'10,000 varied valid statements',
			Array.from({ length: 10_000 }, (_, i) =>
				makeStatement('validation', i, { withId: i % 2 === 0 }),
			),
		],
		[
			'the 950 corpus statements (607 invalid), ×10',
			Array.from({ length: 10 }, () => corpus).flat(),
		],
	];
	const agreement = validators.map(([, validate]) =>
		corpus.map((statement) => validate(statement).ok).join(),
	);
	const rows: Row[] = [];
	const medians: Record<string, Record<string, number>> = {};
	for (const [setName, statements] of sets) {
		for (const [, validate] of validators) ratePerSec(validate, statements.slice(0, 2000)); // warm the JIT
		const rates: Record<string, number[]> = Object.fromEntries(
			validators.map(([name]) => [name, []]),
		);
		for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
			const order = roundIndex % 2 === 0 ? validators : [...validators].reverse();
			for (const [name, validate] of order) rates[name].push(ratePerSec(validate, statements));
		}
		medians[setName] = {};
		const baseline = median(rates[validators[0][0]]);
		for (const [name] of validators) {
			const perSec = median(rates[name]);
			medians[setName][name] = round(perSec, 0);
			rows.push({
				statements: setName,
				validator: name,
				'statements/s (median)': round(perSec, 0).toLocaleString('en-US'),
				'vs hand-written': `${round(perSec / baseline, 3)}×`,
				'vs push endpoint (50/s)': `${round(perSec / PUSH_STATEMENTS_PER_SEC, 0).toLocaleString('en-US')}×`,
				'vs fastest send (1,110/s)': `${round(perSec / FASTEST_SEND_PER_SEC, 1)}×`,
			});
			console.log(
				`  ${setName}, ${name}: ${round(perSec, 0)} statements/s (rounds ${rates[name].map((rate) => round(rate, 0)).join(' ')})`,
			);
		}
	}
	const slowest = Math.min(
		...Object.values(medians).flatMap((byValidator) =>
			Object.entries(byValidator)
				.filter(([name]) => name.startsWith('zod'))
				.map(([, rate]) => rate),
		),
	);
	const checks = [
		check(
			'the zod schemas accept and reject the corpus as the hand-written validator does',
			'same 950 verdicts',
			agreement.every((verdicts) => verdicts === agreement[0]) ? 'same' : 'different',
			agreement.every((verdicts) => verdicts === agreement[0]),
		),
		check(
			'zod schemas, slowest median rate: keeps up with the fastest send',
			`≥ ${FASTEST_SEND_PER_SEC.toLocaleString('en-US')}/s`,
			`${slowest.toLocaleString('en-US')}/s`,
			slowest >= FASTEST_SEND_PER_SEC,
		),
	];
	const durationSec = Math.round((Date.now() - started) / 100) / 10;
	printSection(
		`xAPI validation, zod against the hand-written validator (${durationSec} s)`,
		rows,
		checks,
	);
	const outcome: BenchmarkOutcome = {
		title: 'xAPI statement validation: zod schemas against the hand-written validator',
		method: `validateStatement of the current sources under zod 3.25 and zod 4, and of commit ${BASE} (the hand-written validator, from git), in one process; ${ROUNDS} rounds alternating the order after a warm-up, median rate; ratios within this run. Sets: 10,000 varied valid statements (bench/lib/statements.ts); the 950 conformance corpus statements, 607 invalid, ten times. Against: the platform's push endpoint, 10 requests per 10 s with at most 50 statements each (50/s), and the fastest send measured to a record store (1,110 statements/s, batchSize 500 on loopback, bench/RESULTS.md).`,
		rows,
		checks,
		details: { base: BASE, rounds: ROUNDS, medians },
		notes: [],
	};
	if (process.env.BENCH_VALIDATION_RESULTS !== 'skip') {
		const entry = {
			name: 'xapiValidation',
			ranAt: new Date(started).toISOString(),
			command: commandLine('bench/xapiValidation.ts'),
			durationSec,
			machine,
			source: 'source' as const,
			outcome,
		};
		const { writeResults } = await import('./report/write');
		writeResults([entry]);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
