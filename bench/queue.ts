/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * n8n in queue mode on this machine: `npm run bench:queue` (QUEUE_SIZE=2x50 for the CI-sized run).
 *
 * Redis and Postgres (Debian's packages, scripts/install-queue-deps.sh), the LMS sandbox at the
 * platform's 300 requests/min, and n8n (scripts/install-n8n.sh) as a main process and 2 workers,
 * all on loopback. For each configuration of the credential's Requests per Minute (300, the
 * default, on every worker; with a worker leaving and one joining (churn); then 300 / workers,
 * the README's rule for a fixed fleet) it starts main and workers
 * afresh, posts the executions' courses to a production webhook (the main process puts each
 * execution on the queue, the workers take them), waits until Postgres says every execution has
 * finished, then measures from the sandbox: courses lost, 429s drawn, errors surfaced in n8n, and
 * the rate of accepted writes against the ceiling. Prints a table, writes the "queue" section of
 * bench/results.json (full size only) and regenerates bench/RESULTS.md. A benchmark: targets are
 * PASS/MISS and never fail the run, unless QUEUE_STRICT=1 (then a lost course or a surfaced 429
 * exits with 1). Exits with 2 when it could not run.
 *
 * Knobs: QUEUE_SIZE (<executions>x<items>, 10x100), QUEUE_WORKERS (2; each runs executions /
 * workers at once), QUEUE_CONFIGS (default,churn,rule), QUEUE_RESULTS (write|skip; written by default at full size only),
 * QUEUE_DIST (another build of the package than dist/, e.g. one of an earlier commit) with
 * QUEUE_DIST_LABEL (how results.json names it), QUEUE_SHAPE (the sandbox's limiter shape,
 * sandbox/throttle.ts; its default unless given) and QUEUE_RETRY_AFTER (on | off; on unless given):
 * a run on another limiter writes its own section of results.json ("queue <shape>").
 */
import { machineInfo } from './lib/machine';
import { commandLine } from './report/results';
import { recordRun } from './report/write';
import { runScript } from './lib/script';
import { startBenchSandbox, type SandboxHandle } from './lib/sandboxHandle';
import { check, none, round, sleep, type TargetCheck } from './lib/stats';
import { printSection, type Row } from './lib/table';
import type { BenchmarkOutcome } from './benchmarks/types';
import { installExitHandlers, register, stopAll } from '../harness/cleanup';
import {
	allFinished,
	executionOutcomes,
	executionsOf,
	lostCourses,
	requestFigures,
	timeline,
} from './queue/measure';
import {
	checkN8nInstalled,
	executionsStartedBy,
	N8N_VERSION,
	PACKAGE_DIST,
	REPO_DIST,
	QueueN8n,
	waitForHealthy,
	waitForWorkerReady,
	type N8nProcess,
} from '../harness/queueCluster';
import { tail } from '../harness/n8n';
import { startPostgres, startRedis, type Postgres } from '../harness/services';
import { stopProcessGroup } from '../harness/processes';
import { waitUntil } from '../harness/n8nServer';
import { lmsCredential, upsertWorkflow } from './lib/n8nWorkflows';
import { DEFAULT_OPTIONS } from '../sandbox/options';
import { THROTTLE_SHAPES, type ThrottleShape } from '../sandbox/throttle';
import { limiterLabel } from './lib/limiter';
import { courseItems } from '../harness/nodes';

const FULL_SIZE = '10x100';
const SIZE = parseSize(process.env.QUEUE_SIZE ?? FULL_SIZE);
const WORKERS = positive('QUEUE_WORKERS', 2);
const CONCURRENCY = Math.max(1, Math.ceil(SIZE.executions / WORKERS));
/** The sandbox's requests a minute (the platform's), its latency; Wait for Completion is off. */
const CEILING = 300;
const LATENCY_MS = 200;
const TARGET_RATIO = 0.95;
const SHAPE = limiterShape(process.env.QUEUE_SHAPE);
const RETRY_AFTER = (process.env.QUEUE_RETRY_AFTER || 'on') !== 'off';
/** How results.json and the table name the platform's limiter of this run. */
const LIMITER = limiterLabel(SHAPE, RETRY_AFTER);
const NODE_NAME = 'Create or update course';

type ConfigName = 'default' | 'churn' | 'rule';
interface Config {
	name: ConfigName;
	label: string;
	requestsPerMinute: number;
	/** Worker 1 stopped (gracefully: it finishes what it runs) and one more started mid-run. */
	churn?: boolean;
}
/** Churn: each worker runs half its share at once, so executions wait on the queue for the newcomer. */
const CHURN_CONCURRENCY = Math.max(1, Math.ceil(SIZE.executions / WORKERS / 2));
/** Churn: the newcomer starts, then worker 1 stops, once these shares of the writes were accepted. */
const CHURN_JOIN_AT = 0.25;
const CHURN_LEAVE_AT = 0.5;
const ALL_CONFIGS: Config[] = [
	{
		name: 'default',
		label: `Requests per Minute ${CEILING} (the default) on each worker`,
		requestsPerMinute: CEILING,
	},
	{
		name: 'churn',
		label: `Requests per Minute ${CEILING} (the default); worker ${WORKERS + 1} started after ${CHURN_JOIN_AT * 100} % of the writes, worker 1 stopped after ${CHURN_LEAVE_AT * 100} %`,
		requestsPerMinute: CEILING,
		churn: true,
	},
	{
		name: 'rule',
		label: `Requests per Minute ${Math.floor(CEILING / WORKERS)} = ${CEILING} / ${WORKERS} workers (the README's rule)`,
		requestsPerMinute: Math.floor(CEILING / WORKERS),
	},
];
const CONFIGS = chosenConfigs(process.env.QUEUE_CONFIGS);

function parseSize(text: string): { executions: number; items: number } {
	const match = /^(\d+)x(\d+)$/.exec(text.trim());
	if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
		throw new Error(`QUEUE_SIZE must look like 10x100 (executions x items), got "${text}"`);
	return { executions: Number(match[1]), items: Number(match[2]) };
}

function limiterShape(text: string | undefined): ThrottleShape | undefined {
	if (!text) return undefined;
	const shape = THROTTLE_SHAPES.find((known) => known === text.trim());
	if (!shape) throw new Error(`QUEUE_SHAPE must be one of ${THROTTLE_SHAPES.join(', ')}`);
	// The sandbox's default is the plain run: its section and title name no limiter.
	return shape === DEFAULT_OPTIONS.throttleShape ? undefined : shape;
}

function positive(name: string, fallback: number): number {
	const value =
		process.env[name] === undefined || process.env[name] === ''
			? fallback
			: Number(process.env[name]);
	if (!Number.isInteger(value) || value < 1)
		throw new Error(`${name} must be a whole number of at least 1`);
	return value;
}

function chosenConfigs(text: string | undefined): Config[] {
	if (!text) return ALL_CONFIGS;
	const names = text.split(',').map((name) => name.trim());
	const unknown = names.filter((name) => !ALL_CONFIGS.some((config) => config.name === name));
	if (unknown.length > 0)
		throw new Error(
			`QUEUE_CONFIGS: unknown ${unknown.join(', ')} (choose from default, churn, rule)`,
		);
	return ALL_CONFIGS.filter((config) => names.includes(config.name));
}

type ConfigResult = Awaited<ReturnType<typeof runConfig>>;

function seconds(fromMs: number): number {
	return round((Date.now() - fromMs) / 1000, 1);
}

/**
 * Until the main process has registered the production webhook. A GET on the POST-only path
 * starts no execution: n8n answers 404 either way, but names the POST method once the webhook
 * is registered.
 */
const waitForWebhook = (mainUrl: string, webhookPath: string) =>
	waitUntil(
		`webhook ${webhookPath} registered`,
		120_000,
		async () => {
			const text = await (await fetch(`${mainUrl}/webhook/${webhookPath}`)).text();
			return /Did you mean to make a POST request/.test(text) || undefined;
		},
		250,
	);

/** Posts one execution's courses; a 404 means the webhook is not registered (no execution started): try again. */
const trigger = (mainUrl: string, webhookPath: string, courses: unknown[]) =>
	waitUntil(
		`webhook ${webhookPath} answering`,
		60_000,
		async () => {
			const response = await fetch(`${mainUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ courses }),
			});
			const text = await response.text();
			if (response.status !== 404 && !response.ok)
				throw new Error(`webhook ${webhookPath}: HTTP ${response.status} ${text.slice(0, 300)}`);
			return response.ok || undefined;
		},
		500,
	);

async function runConfig(
	config: Config,
	workflow: ReturnType<typeof upsertWorkflow>,
	n8n: QueueN8n,
	postgres: Postgres,
	sandbox: SandboxHandle,
) {
	console.log(`\n-- ${config.label}`);
	await sandbox.reset();
	const startupStarted = Date.now();
	const main = await n8n.startMain();
	const workers: N8nProcess[] = [];
	const concurrency = config.churn ? CHURN_CONCURRENCY : CONCURRENCY;
	for (let i = 1; i <= WORKERS; i++)
		workers.push(await n8n.startWorker(`worker ${i}`, concurrency));
	/** Churn: the worker stopped mid-run (its exit is expected) and when the newcomer joined. */
	let leaving: Promise<void> | undefined;
	let joined = false;
	try {
		await Promise.all([
			waitForHealthy(main),
			...workers.map((worker) => waitForWorkerReady(worker)),
		]);
		const startupSec = seconds(startupStarted);
		console.log(
			`  main and ${WORKERS} workers (concurrency ${concurrency} each) up in ${startupSec} s`,
		);

		await waitForWebhook(main.url, workflow.webhookPath);
		const batches = Array.from({ length: SIZE.executions }, (_, execution) =>
			courseItems(SIZE.items, `queue-${config.name}-${execution}`),
		);
		const expected = batches.flatMap((courses) => courses.map((course) => course.externalId));
		// All at once, as a burst of events would arrive: the workers take them off the queue.
		const triggered = Date.now();
		await Promise.all(batches.map((courses) => trigger(main.url, workflow.webhookPath, courses)));
		console.log(
			`  ${SIZE.executions} executions of ${SIZE.items} upserts queued in ${seconds(triggered)} s`,
		);

		const totalItems = SIZE.executions * SIZE.items;
		const timeoutMs =
			(3 * totalItems * 60_000) / Math.min(config.requestsPerMinute, CEILING) + 180_000;
		let rows = await executionsOf(postgres, workflow.id);
		let lastReport = Date.now();
		while (!allFinished(rows, SIZE.executions)) {
			if (Date.now() - triggered > timeoutMs)
				throw new Error(
					`executions not finished after ${Math.round(timeoutMs / 1000)} s: ${JSON.stringify(rows.map((row) => row.status))}`,
				);
			for (const process_ of [main, ...workers]) {
				if (leaving && process_ === workers[0]) continue;
				if (process_.ended())
					throw new Error(
						`n8n ${process_ === main ? 'main' : (process_ as N8nProcess).name} exited:\n${tail(process_.output())}`,
					);
			}
			await sleep(2000);
			rows = await executionsOf(postgres, workflow.id);
			if (config.churn && (!joined || !leaving)) {
				const accepted = requestFigures(await sandbox.requests(), CEILING).writesAccepted;
				if (!joined && accepted >= CHURN_JOIN_AT * totalItems) {
					joined = true;
					const newcomer = await n8n.startWorker(`worker ${WORKERS + 1}`, concurrency);
					workers.push(newcomer);
					console.log(
						`  ${seconds(triggered)} s: ${accepted} writes accepted, worker ${WORKERS + 1} starting`,
					);
				}
				if (!leaving && accepted >= CHURN_LEAVE_AT * totalItems) {
					leaving = stopGracefully(workers[0]);
					console.log(`  ${seconds(triggered)} s: ${accepted} writes accepted, worker 1 stopping`);
				}
			}
			if (Date.now() - lastReport >= 20_000) {
				lastReport = Date.now();
				const log = await sandbox.requests();
				const figures = requestFigures(log, CEILING);
				console.log(
					`  ${seconds(triggered)} s: ${rows.filter((row) => row.status === 'success' || row.status === 'error').length}/${SIZE.executions} executions finished, ${figures.writesAccepted}/${totalItems} writes accepted, ${figures.throttled429} × 429 so far`,
				);
			}
		}
		const stoppedAts = rows.map((row) => (row.stoppedAt ? Date.parse(row.stoppedAt) : Date.now()));
		const wallSec = round((Math.max(...stoppedAts) - triggered) / 1000, 1);
		const startedAts = rows
			.filter((row) => row.startedAt)
			.map((row) => Date.parse(row.startedAt as string));
		const startSpreadSec =
			startedAts.length > 0
				? round((Math.max(...startedAts) - Math.min(...startedAts)) / 1000, 1)
				: 0;

		const workerOf = new Map<string, string>();
		for (const worker of workers)
			for (const id of executionsStartedBy(worker)) workerOf.set(id, worker.name);
		const executions = await executionOutcomes(postgres, rows, NODE_NAME, workerOf);
		const log = await sandbox.requests();
		const state = await sandbox.state();
		const requests = requestFigures(log, CEILING);
		const lost = lostCourses(state, expected);
		const perWorker = Object.fromEntries(workers.map((worker) => [worker.name, 0]));
		const workerDoneSec = { ...perWorker };
		for (const execution of executions) {
			perWorker[execution.worker] = (perWorker[execution.worker] ?? 0) + 1;
			const doneSec = execution.stoppedAt
				? round((Date.parse(execution.stoppedAt) - triggered) / 1000, 1)
				: 0;
			workerDoneSec[execution.worker] = Math.max(workerDoneSec[execution.worker] ?? 0, doneSec);
		}
		const ratio = round(requests.acceptedPerSec / (CEILING / 60), 3);
		const result = {
			config,
			executions,
			requests,
			lost: lost.length,
			lostExamples: lost.slice(0, 3),
			surfaced429: executions.reduce((sum, execution) => sum + execution.throttleErrors, 0),
			errorExecutions: executions.filter((execution) => execution.status !== 'success').length,
			errorItems: executions.reduce((sum, execution) => sum + execution.errorItems, 0),
			perWorker,
			ratio,
			timeline: timeline(log),
			wallSec,
			startSpreadSec,
			workerDoneSec,
			startupSec,
			firstErrors: [
				...new Set(
					executions
						.map((execution) => execution.error.replace(/\s+/g, ' ').trim())
						.filter(Boolean),
				),
			].slice(0, 3),
		};
		console.log(
			`  done in ${wallSec} s: ${result.lost} lost, ${requests.throttled429} × 429 drawn, ${result.surfaced429} surfaced, ${result.errorExecutions} failed executions, ${ratio} of the ceiling; executions per worker ${Object.entries(
				perWorker,
			)
				.map(([name, count]) => `${name}: ${count}`)
				.join(', ')}`,
		);
		console.log(`  accepted writes / 429s per 10 s: ${pace(result)}`);
		return result;
	} finally {
		await leaving;
		await Promise.all([main, ...workers].map((process_) => process_.stop()));
	}
}

/**
 * SIGTERM to the worker alone, as an orchestrator scaling down does: n8n takes no more
 * executions and finishes those it runs (N8N_GRACEFUL_SHUTDOWN_TIMEOUT), then stops its task
 * runner itself. (A signal to its whole process group would stop the runner under it.)
 */
async function stopGracefully(worker: N8nProcess): Promise<void> {
	worker.child.kill('SIGTERM');
	await Promise.race([worker.exited.catch(() => undefined), sleep(600_000)]);
	await stopProcessGroup(worker, 10_000);
}

function resultRow(result: ConfigResult): Row {
	const { requests } = result;
	return {
		configuration: result.config.name,
		'req/min per worker': result.config.requestsPerMinute,
		executions: result.executions.length,
		items: SIZE.executions * SIZE.items,
		lost: result.lost,
		'429s drawn': requests.throttled429,
		'429s per 100 writes': round(
			(100 * requests.throttled429) / Math.max(1, requests.writesAccepted),
			1,
		),
		'429s surfaced': result.surfaced429,
		'failed executions': result.errorExecutions,
		'error items': result.errorItems,
		'writes sent': requests.writes,
		'writes accepted': requests.writesAccepted,
		'token requests': requests.tokens,
		'busy s': round(requests.busySec, 1),
		'ok writes/s': round(requests.acceptedPerSec, 2),
		'rate / ceiling': result.ratio.toFixed(3),
		'wall s': result.wallSec,
		'last start after s': result.startSpreadSec,
		'executions per worker': Object.values(result.perWorker).join(' / '),
		'worker done after s': Object.values(result.workerDoneSec).join(' / '),
	};
}

function checksFor(result: ConfigResult): TargetCheck[] {
	const name = result.config.name;
	return [
		none(`${name}: courses lost`, result.lost),
		none(`${name}: 429s surfaced as errors`, result.surfaced429),
		none(`${name}: failed executions (any error)`, result.errorExecutions),
		check(
			`${name}: rate`,
			`≥ ${TARGET_RATIO} of the ceiling`,
			result.ratio.toFixed(3),
			result.ratio >= TARGET_RATIO,
		),
	];
}

/** Accepted writes / 429s per 10 s, as printed. */
function pace(result: ConfigResult): string {
	return result.timeline
		.map((bucket) => `${bucket.acceptedWrites}/${bucket.throttled429}`)
		.join(' ');
}

function meets(result: ConfigResult): boolean {
	return checksFor(result).every((target) => target.pass);
}

function notesFor(results: ConfigResult[]): string[] {
	const notes: string[] = [];
	for (const result of results) {
		const spread = Object.values(result.perWorker);
		if (spread.filter((count) => count > 0).length < Math.min(WORKERS, SIZE.executions)) {
			notes.push(
				`${result.config.name}: the executions did not spread over all ${WORKERS} workers (${spread.join(' / ')}).`,
			);
		}
		if (result.firstErrors.length > 0)
			notes.push(
				`${result.config.name}: execution errors: ${result.firstErrors.map((error) => `"${error.length > 320 ? `${error.slice(0, 320)}…` : error}"`).join('; ')}`,
			);
		notes.push(
			`${result.config.name}: accepted writes / 429s per 10 s: ${pace(result)} (the ceiling is ${CEILING / 6} writes per 10 s).`,
		);
		if (result.lost > 0)
			notes.push(
				`${result.config.name}: ${result.lost} courses not stored, e.g. ${result.lostExamples.join(', ')}.`,
			);
	}
	const timeout = results
		.flatMap((result) => result.firstErrors)
		.map((error) => /no usable answer within the (\d+) s allowed/.exec(error))
		.find(Boolean);
	if (timeout) {
		notes.push(
			`The failed items ran out of their operation timeout (Options → Timeout, ${timeout[1]} s by default), which includes the wait for a slot of the worker's throttle: a worker running ${CONCURRENCY} executions keeps up to ${CONCURRENCY} × the node's pool of items waiting on its one throttle, an item refused with 429 waits its Retry-After and queues again behind them, and a slot that lies past the item's deadline fails it at once. Without Continue On Fail the execution then stops and its unsent items are lost.`,
		);
	}
	const byDefault = results.find((result) => result.config.name === 'default');
	const rule = results.find((result) => result.config.name === 'rule');
	if (byDefault) {
		const drawn = byDefault.requests.throttled429;
		notes.push(
			meets(byDefault)
				? `With the default (${CEILING}/min on each of ${WORKERS} workers, ${WORKERS * CEILING}/min offered to a ${CEILING}/min service) the package met every target: ${drawn} × 429 drawn and absorbed by its retries (Retry-After honoured, the worker's throttle paused), none surfaced, ${byDefault.ratio.toFixed(3)} of the ceiling. Queue mode needs no setting by default.`
				: `With the default (${CEILING}/min on each of ${WORKERS} workers, up to ${WORKERS * CEILING}/min offered to a ${CEILING}/min service) the package missed a target: ${byDefault.lost} lost, ${drawn} × 429 drawn, ${byDefault.surfaced429} surfaced as 429 errors, ${byDefault.errorExecutions} failed executions, ${byDefault.ratio.toFixed(3)} of the ceiling. The README's rule (300 / workers) suits only a fixed fleet with evenly spread work (README, Scaling out).`,
		);
	}
	if (rule) {
		notes.push(
			meets(rule)
				? `The README's rule (${rule.config.requestsPerMinute}/min = ${CEILING} / ${WORKERS}) holds: ${rule.requests.throttled429} × 429 drawn, ${rule.lost} lost, ${rule.ratio.toFixed(3)} of the ceiling.`
				: `The README's rule (${rule.config.requestsPerMinute}/min = ${CEILING} / ${WORKERS}) missed a target: ${rule.lost} lost, ${rule.requests.throttled429} × 429 drawn, ${rule.surfaced429} surfaced, ${rule.ratio.toFixed(3)} of the ceiling${rule.ratio < TARGET_RATIO ? ' (a worker with nothing left to run leaves its half of the budget unused)' : ''}.`,
		);
	}
	return notes;
}

async function main(): Promise<number> {
	installExitHandlers();
	checkN8nInstalled();
	const machine = machineInfo();
	const started = Date.now();
	console.log(
		`Queue mode: n8n ${N8N_VERSION}, a main process and ${WORKERS} workers (concurrency ${CONCURRENCY}), ${SIZE.executions} executions × ${SIZE.items} course upserts, sandbox at ${CEILING}/min (${LIMITER}) with ${LATENCY_MS} ms latency; Wait for Completion off (load average ${machine.loadAverage})`,
	);
	const results: ConfigResult[] = [];
	try {
		const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
		const sandbox = await startBenchSandbox({
			latencyMs: LATENCY_MS,
			rateLimitPerMinute: CEILING,
			transactionDelayMs: 0,
			clientId: 'bench-queue',
			...(SHAPE && { throttleShape: SHAPE }),
			throttleRetryAfter: RETRY_AFTER,
		});
		// The sandbox is a child process of ours: stopped with the rest.
		register({ name: 'sandbox', stop: () => sandbox.close(), kill: () => void sandbox.close() });
		console.log(
			`  Postgres on ${postgres.port}, Redis on ${redis.port}, sandbox at ${sandbox.url} (${seconds(started)} s)`,
		);

		const n8n = QueueN8n.create(postgres, redis);
		const credentials = CONFIGS.map((config) =>
			lmsCredential(`LMS ${config.name}`, sandbox, config.requestsPerMinute),
		);
		const workflows = CONFIGS.map((config, index) =>
			upsertWorkflow(
				`Queue upsert (${config.name})`,
				`lp-queue-${config.name}`,
				credentials[index],
				false,
			),
		);
		const setupStarted = Date.now();
		await n8n.cli(['import:credentials', `--input=${n8n.writeInput('credentials', credentials)}`]);
		await n8n.cli([
			'import:workflow',
			`--input=${n8n.writeInput(
				'workflows',
				workflows.map((workflow) => workflow.json),
			)}`,
		]);
		for (const workflow of workflows) await n8n.cli(['publish:workflow', `--id=${workflow.id}`]);
		console.log(
			`  database migrated, credentials and workflows imported and published in ${seconds(setupStarted)} s`,
		);

		for (const [index, config] of CONFIGS.entries())
			results.push(await runConfig(config, workflows[index], n8n, postgres, sandbox));
	} finally {
		await stopAll();
	}

	const rows = results.map(resultRow);
	const checks = results.flatMap(checksFor);
	const notes = notesFor(results);
	const durationSec = seconds(started);
	const size = `${SIZE.executions}x${SIZE.items}`;
	const outcome: BenchmarkOutcome = {
		title: `Queue mode: ${WORKERS} workers sharing one client${SHAPE || !RETRY_AFTER ? ` (limiter ${LIMITER})` : ''}`,
		method: `n8n ${N8N_VERSION} in queue mode on loopback: Redis and Postgres from Debian's packages, a main process and ${WORKERS} workers (\`n8n worker --concurrency=${CONCURRENCY}\`), the built package loaded as a custom extension. A workflow Webhook → Split Out → Create or Update Course (node settings at their defaults, except Wait for Completion off: one write per course) receives ${SIZE.executions} webhook calls of ${SIZE.items} courses each; the main process queues each execution and the workers run them. The sandbox throttles the client at ${CEILING} requests/min (limiter ${LIMITER}: sandbox/throttle.ts; 429 beyond it) with ${LATENCY_MS} ms latency. Each configuration starts main and workers afresh (a worker's throttle lives in its process) against a reset sandbox. Lost = expected external ids missing from the sandbox's stored courses; 429s drawn = 429 answers in the sandbox's log; 429s surfaced = error items or failed executions in n8n's stored execution data whose error names the throttle (429, Too many requests); failed executions counts every error, whatever its message; rate = accepted writes / (last accepted write − first write + one interval) / (${CEILING}/60); executions per worker from each worker's "started execution" log lines; "worker done after" = when each worker ended its last execution. Wall = first webhook call to the last execution's end; "last start after" = the last execution's start after the first one's (0: all ran side by side).`,
		rows,
		checks,
		details: {
			size,
			workers: WORKERS,
			concurrency: CONCURRENCY,
			ceilingPerMinute: CEILING,
			latencyMs: LATENCY_MS,
			waitForCompletion: false,
			n8nVersion: N8N_VERSION,
			configurations: results.map((result) => ({
				name: result.config.name,
				requestsPerMinute: result.config.requestsPerMinute,
				requests: result.requests,
				lost: result.lost,
				surfaced429: result.surfaced429,
				perWorker: result.perWorker,
				timeline: result.timeline,
				startupSec: result.startupSec,
				wallSec: result.wallSec,
				startSpreadSec: result.startSpreadSec,
				workerDoneSec: result.workerDoneSec,
				executions: result.executions.map(({ throttleErrors, ...execution }) => ({
					...execution,
					error: execution.error.slice(0, 300),
				})),
			})),
		},
		notes,
	};
	const write =
		process.env.QUEUE_RESULTS === 'write' ||
		(process.env.QUEUE_RESULTS !== 'skip' &&
			size === FULL_SIZE &&
			CONFIGS.length === ALL_CONFIGS.length);
	if (write && results.length > 0) {
		// Another fleet or size is a section of its own: it must not replace the 2 × 10x100 one.
		const name = [
			SHAPE || !RETRY_AFTER ? `queue ${LIMITER}` : 'queue',
			...(WORKERS !== 2 || size !== FULL_SIZE ? [`${WORKERS} workers, ${size}`] : []),
		].join(', ');
		const source =
			process.env.QUEUE_DIST_LABEL ?? (PACKAGE_DIST === REPO_DIST ? 'dist' : PACKAGE_DIST);
		recordRun(name, outcome, {
			started,
			machine,
			source,
			command: commandLine('bench/queue.ts', ['QUEUE_']),
		});
		console.log(
			'\nWrote the "queue" section of bench/results.json and regenerated bench/RESULTS.md.',
		);
	} else {
		printSection(`${outcome.title} (${durationSec} s)`, rows, checks);
		for (const note of notes) console.log(`- ${note}`);
		console.log(
			`\nResults not written (${process.env.QUEUE_RESULTS === 'skip' ? 'QUEUE_RESULTS=skip' : `QUEUE_SIZE=${size}; only the full ${FULL_SIZE} run with both configurations writes them, or QUEUE_RESULTS=write`}).`,
		);
	}
	console.log(`Total ${durationSec} s.`);
	const failed = results.some(
		(result) => result.lost > 0 || result.surfaced429 > 0 || result.errorExecutions > 0,
	);
	return process.env.QUEUE_STRICT === '1' && failed ? 1 : 0;
}

runScript(main, 2);
