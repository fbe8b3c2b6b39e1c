/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * Queue mode simulated in one process on a fake clock (bench/queue/sharedBudget.ts): the
 * throttle of nodes/shared/pacing against the sandbox's throttle, for 1, 2 and 4 workers at the
 * default rate, workers joining and leaving mid-run, and another system spending part of the
 * budget. Seconds per scenario; the figures to compare throttle designs before the real queue
 * bench (npm run bench:queue). `npx tsx bench/queueSim.ts [scenario …]`
 * (names containing any argument; SIM_SEED=n or SIM_SEEDS=1,2,3 place the sends from a seeded random;
 * SIM_SHAPES=a,b the limiter shapes of sandbox/throttle.ts, SIM_RETRY_AFTER=on|off|both|ms or a
 * list such as on,ms (ms: the exact wait, which HTTP's whole-second Retry-After cannot carry);
 * SIM_BASELINE=<an older checkout> runs its simulation and throttle on the same seeds, labelled
 * SIM_BASELINE_LABEL; SIM_RESULTS=write stores the grid in bench/results.json).
 */
import path from 'node:path';

import type { ThrottleShape } from '../sandbox/throttle';
import {
	seededRandom,
	simulateSharedBudget,
	type SharedBudgetResult,
	type SharedBudgetRun,
} from './queue/sharedBudget';
import { limiterLabel } from './lib/limiter';
import { check } from './lib/stats';

// jest's own fake clock (no type declarations ship with it).
const FakeTimers = require('@sinonjs/fake-timers') as {
	install(options: { toFake: string[] }): {
		tickAsync(ms: number): Promise<number>;
		uninstall(): void;
	};
};

type Scenario = Omit<SharedBudgetRun, 'advance'>;

const SCENARIOS: Record<string, Scenario> = {
	'1 worker, 10x100': { workers: [{}], executions: 10, itemsPerExecution: 100 },
	'2 workers, 10x40': { workers: [{}, {}], executions: 10, itemsPerExecution: 40 },
	'2 workers, 10x100': { workers: [{}, {}], executions: 10, itemsPerExecution: 100 },
	'4 workers, 10x40': { workers: [{}, {}, {}, {}], executions: 10, itemsPerExecution: 40 },
	'4 workers, 10x100': { workers: [{}, {}, {}, {}], executions: 10, itemsPerExecution: 100 },
	// The real queue bench's churn at 2 × 400 (half of each worker's share at once).
	'2 workers, one leaves at 40 s, one joins at 20 s, 10x40': {
		workers: [{ leaveAtMs: 40_000 }, {}, { joinAtMs: 20_000 }],
		executions: 10,
		itemsPerExecution: 40,
		concurrency: 3,
	},
	'2 workers, one leaves at 60 s, one joins at 30 s, 20x50': {
		workers: [{ leaveAtMs: 60_000 }, {}, { joinAtMs: 30_000 }],
		executions: 20,
		itemsPerExecution: 50,
		concurrency: 2,
	},
	'2 workers, another system at 60/min, 10x100': {
		workers: [{}, {}],
		executions: 10,
		itemsPerExecution: 100,
		otherPerMin: 60,
	},
	'2 workers at 150/min (300 / W), 10x100': {
		workers: [{}, {}],
		executions: 10,
		itemsPerExecution: 100,
		requestsPerMinute: 150,
	},
};

/** One cell of the grid: a scenario on one limiter, each seed's run (and the baseline tree's). */
interface Cell {
	scenario: string;
	limiter: string;
	runs: SharedBudgetResult[];
	baselineRuns: SharedBudgetResult[];
}

async function simulate(
	simulateWith: typeof simulateSharedBudget,
	scenario: Scenario,
	shape: ThrottleShape,
	retryAfter: boolean | 'ms',
	seed: number | undefined,
): Promise<SharedBudgetResult> {
	if (seed !== undefined) Math.random = seededRandom(seed);
	const clock = FakeTimers.install({
		toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
	});
	try {
		return await simulateWith({
			...scenario,
			shape,
			retryAfter,
			advance: (ms) => clock.tickAsync(ms),
		});
	} finally {
		clock.uninstall();
	}
}

async function main(): Promise<void> {
	const started = Date.now();
	const chosen = process.argv.slice(2);
	const names = Object.keys(SCENARIOS).filter(
		(name) => chosen.length === 0 || chosen.some((c) => name.includes(c)),
	);
	const shapes = (process.env.SIM_SHAPES ?? 'sliding-60s+bucket-1s').split(',') as ThrottleShape[];
	const knobs: Record<string, Array<boolean | 'ms'>> = {
		both: [true, false],
		on: [true],
		off: [false],
		ms: ['ms'],
	};
	const told = (process.env.SIM_RETRY_AFTER ?? 'on').split(',').flatMap((knob) => {
		const values = knobs[knob];
		if (!values) throw new Error('SIM_RETRY_AFTER takes on, off, both, ms or a list of them');
		return values;
	});
	const seeds = (process.env.SIM_SEEDS ?? process.env.SIM_SEED ?? '')
		.split(',')
		.filter(Boolean)
		.map(Number);
	// An older checkout's simulation (its throttle with it), run on the same seeds: the baseline.
	const baselineDir = process.env.SIM_BASELINE;
	const baseline = baselineDir
		? (require(path.resolve(baselineDir, 'bench/queue/sharedBudget')) as {
				simulateSharedBudget: typeof simulateSharedBudget;
			})
		: undefined;
	console.log(
		'| scenario | tree | seed | accepted | 429s drawn | per 100 writes | lost | rate / ceiling | most in a minute | wall s | per worker |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|---|---|');
	const cells: Cell[] = [];
	for (const [name, shape, retryAfter] of names.flatMap((name) =>
		shapes.flatMap((shape) => told.map((retryAfter) => [name, shape, retryAfter] as const)),
	)) {
		const cell: Cell = {
			scenario: name,
			limiter: limiterLabel(shape, retryAfter),
			runs: [],
			baselineRuns: [],
		};
		cells.push(cell);
		const trees: Array<[string, typeof simulateSharedBudget, SharedBudgetResult[]]> = [
			['this tree', simulateSharedBudget, cell.runs],
		];
		if (baseline) trees.push(['baseline', baseline.simulateSharedBudget, cell.baselineRuns]);
		for (const seed of seeds.length > 0 ? seeds : [undefined]) {
			for (const [tree, simulateWith, runs] of trees) {
				const r = await simulate(simulateWith, SCENARIOS[name], shape, retryAfter, seed);
				runs.push(r);
				console.log(
					`| ${name}, ${cell.limiter} | ${tree} | ${seed ?? '-'} | ${r.accepted} | ${r.drawn429} | ${r.per100.toFixed(1)} | ${r.lost} | ${r.ratio.toFixed(3)} | ${r.maxPerMinute} | ${r.wallSec} | ${r.perWorker.join(' / ')} |`,
				);
				if (process.env.SIM_TIMELINE) console.log(`  ${r.timeline}`);
			}
		}
	}
	if (process.env.SIM_RESULTS === 'write') await writeGrid(cells, seeds, started, baselineDir);
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const lostIn = (runs: SharedBudgetResult[]) => runs.reduce((sum, r) => sum + r.lost, 0);

/** The grid as a results.json section: each cell's mean and lowest rate over the seeds. */
async function writeGrid(
	cells: Cell[],
	seeds: number[],
	started: number,
	baselineDir: string | undefined,
): Promise<void> {
	const label = process.env.SIM_BASELINE_LABEL ?? baselineDir ?? 'baseline';
	const exactly = cells.some((cell) => cell.limiter.includes('in ms'));
	const rows = cells.map(({ scenario, limiter, runs, baselineRuns }) => {
		const rates = runs.map((r) => r.ratio);
		const row: Record<string, string | number> = {
			scenario,
			limiter,
			'429s per 100 writes': mean(runs.map((r) => r.per100)).toFixed(1),
			lost: lostIn(runs),
			'rate / ceiling, mean': mean(rates).toFixed(3),
			lowest: Math.min(...rates).toFixed(3),
		};
		if (baselineRuns.length > 0) {
			const base = baselineRuns.map((r) => r.ratio);
			row[`${label}: 429s per 100`] = mean(baselineRuns.map((r) => r.per100)).toFixed(1);
			row[`${label}: lost`] = lostIn(baselineRuns);
			row[`${label}: rate, mean`] = mean(base).toFixed(3);
			row[`${label}: lowest`] = Math.min(...base).toFixed(3);
			row['ratio to it'] = (mean(rates) / mean(base)).toFixed(3);
		}
		return row;
	});
	const checks = cells.map(({ scenario, limiter, runs }) => {
		const rate = mean(runs.map((r) => r.ratio));
		const lost = lostIn(runs);
		return check(
			`${scenario}, ${limiter}`,
			'≥ 0.95 of the ceiling (mean), nothing lost',
			`${rate.toFixed(3)}, ${lost} lost`,
			rate >= 0.95 && lost === 0,
		);
	});
	const { machineInfo } = await import('./lib/machine');
	const { commandLine } = await import('./report/results');
	const { writeResults } = await import('./report/write');
	writeResults([
		{
			name: `queue-sim shapes: ${process.argv.slice(2).join(', ') || 'all'}${exactly ? ', Retry-After in ms' : ''}`,
			ranAt: new Date(started).toISOString(),
			command: commandLine('bench/queueSim.ts', ['SIM_']),
			durationSec: Math.round((Date.now() - started) / 1000),
			machine: machineInfo(),
			source: 'source',
			outcome: {
				title: `Queue mode simulated on every limiter shape (issue 39): ${process.argv.slice(2).join(', ') || 'every scenario'}${exactly ? ', whole seconds against an exact Retry-After' : ''}`,
				method: `bench/queueSim.ts: one throttle per simulated worker (no memory shared) against the sandbox's own Throttle in each shape (sandbox/throttle.ts), with and without Retry-After, on a fake clock, 200 ms latency, Requests per Minute 300 on every worker, executions queued for the workers as in the real queue bench; each 429 handled as callApi handles it. Seeds ${seeds.join(', ') || 'none (Math.random)'} place the sends; each cell gives the mean and lowest rate over them. Rate = accepted writes over the busy time as a share of the ceiling (a fixed or sliding 60 s window can exceed 1 over a short run: its first minute is granted at once). Lost = items whose 429s lasted past their 120 s deadline (an LMS write's default Timeout).${exactly ? " Cells 'Retry-After in ms': the platform's exact wait, which HTTP's Retry-After (whole seconds) cannot carry, taken as told and counted from the send, without callApi's 1 s floor: what the whole-second rounding costs." : ''}${baselineDir ? ` The baseline is ${label}'s own simulation and throttle, on the same seeds, in the same run.` : ''}`,
				rows,
				checks,
			},
		},
	]);
	console.log(
		'\nWrote the "queue-sim shapes" sections of bench/results.json and regenerated bench/RESULTS.md.',
	);
}

void main();
