/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * Queue mode simulated in one process on a fake clock (bench/queue/sharedBudget.ts): the
 * throttle of nodes/shared/pacing against the sandbox's throttle, for 1, 2 and 4 workers at the
 * default rate, workers joining and leaving mid-run, and another system spending part of the
 * budget. Seconds per scenario; the figures to compare throttle designs before the real queue
 * bench (npm run bench:queue). `npx tsx bench/queueSim.ts [scenario …]`
 * (names containing any argument; SIM_SEED=n places the sends from a seeded random; SIM_SHAPES=a,b
 * the limiter shapes of sandbox/throttle.ts, SIM_RETRY_AFTER=on|off|both).
 */
import type { ThrottleShape } from '../sandbox/throttle';
import { seededRandom, simulateSharedBudget, type SharedBudgetRun } from './queue/sharedBudget';
import { limiterLabel } from './lib/limiter';

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

async function main(): Promise<void> {
	const chosen = process.argv.slice(2);
	const names = Object.keys(SCENARIOS).filter(
		(name) => chosen.length === 0 || chosen.some((c) => name.includes(c)),
	);
	console.log(
		'| scenario | accepted | 429s drawn | per 100 writes | gave up | rate / ceiling | most in a minute | wall s | per worker |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|');
	const shapes = (process.env.SIM_SHAPES ?? 'sliding-60s+bucket-1s').split(',') as ThrottleShape[];
	const told = { both: [true, false], on: [true], off: [false] }[
		process.env.SIM_RETRY_AFTER ?? 'on'
	]!;
	for (const [name, shape, retryAfter] of names.flatMap((name) =>
		shapes.flatMap((shape) => told.map((retryAfter) => [name, shape, retryAfter] as const)),
	)) {
		if (process.env.SIM_SEED) Math.random = seededRandom(Number(process.env.SIM_SEED));
		const clock = FakeTimers.install({
			toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
		});
		try {
			const r = await simulateSharedBudget({
				...SCENARIOS[name],
				shape,
				retryAfter,
				advance: (ms) => clock.tickAsync(ms),
			});
			console.log(
				`| ${name}, ${limiterLabel(shape, retryAfter)} | ${r.accepted} | ${r.drawn429} | ${r.per100.toFixed(1)} | ${r.gaveUp + r.refusedSlots} | ${r.ratio.toFixed(3)} | ${r.maxPerMinute} | ${r.wallSec} | ${r.perWorker.join(' / ')} |`,
			);
			if (process.env.SIM_TIMELINE) console.log(`  ${r.timeline}`);
		} finally {
			clock.uninstall();
		}
	}
}

void main();
