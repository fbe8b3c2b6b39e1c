/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * Queue mode in one process, on a fake clock: several throttles (one per simulated worker, no
 * memory shared) pace items against one simulated platform client (the sandbox's own throttle:
 * a one-second bucket and a sliding minute, 429 with Retry-After). Each item is sent as callApi
 * sends it: a slot, half the latency to arrive, half to answer, a 429's Retry-After handed to
 * the throttle, at most 12 tries. Executions wait on one queue; a worker runs up to
 * `concurrency` of them at once, each with its own cancel signal (so they take turns on the
 * worker's throttle) and the node's pool of items in flight. Workers may join or leave (stop
 * taking executions, finish the ones they run) mid-run, and another system may spend part of
 * the budget at a fixed pace.
 *
 * The caller installs fake timers (jest's or @sinonjs/fake-timers) and passes their `advance`.
 */
import { setMaxListeners } from 'node:events';

import { Deadline } from '../../nodes/shared/pacing/time';
import { RequestThrottle, concurrencyFor } from '../../nodes/shared/pacing/throttle';
import { countedFromSend, waitAfterThrottle } from '../../nodes/shared/request/failure';
import {
	Throttle as ServiceThrottle,
	type ThrottleDecision,
	type ThrottleShape,
} from '../../sandbox/throttle';

/** An LMS write's Timeout by default (Options → Timeout): its 429s are repeated until then. */
const WRITE_TIMEOUT_MS = 120_000;

export interface SimWorker {
	/** When it starts taking executions, ms after the start (0). */
	joinAtMs?: number;
	/** When it stops taking executions (it finishes those it runs), ms after the start. */
	leaveAtMs?: number;
}

export interface SharedBudgetRun {
	workers: SimWorker[];
	executions: number;
	itemsPerExecution: number;
	/** Executions a worker runs at once (n8n worker --concurrency); executions / workers by default. */
	concurrency?: number;
	ceilingPerMin?: number;
	/** Requests per Minute set on the credential (the ceiling by default). */
	requestsPerMinute?: number;
	latencyMs?: number;
	/** Another system on the same client, sending this many requests a minute (429s not retried). */
	otherPerMin?: number;
	/** How the platform counts its minute (the sandbox's default unless given). */
	shape?: ThrottleShape;
	/**
	 * Whether its 429s carry Retry-After (true unless given). 'ms', which HTTP cannot send (its
	 * Retry-After is whole seconds): the exact wait, taken as told, from the send as callApi counts.
	 */
	retryAfter?: boolean | 'ms';
	/** Fake-clock advance (jest.advanceTimersByTimeAsync or clock.tickAsync). */
	advance: (ms: number) => Promise<unknown>;
	limitMs?: number;
}

export interface SharedBudgetResult {
	accepted: number;
	drawn429: number;
	/** Items whose 429s outlasted their deadline. */
	lost: number;
	/** Accepted writes / (last accepted − first sent + one interval) / ceiling. */
	ratio: number;
	per100: number;
	/** Most accepted requests (ours and the other system's) in any 60 s. */
	maxPerMinute: number;
	wallSec: number;
	otherAccepted: number;
	perWorker: number[];
	/** Accepted / 429s per 10 s. */
	timeline: string;
}

/** Random numbers the same on every run (mulberry32), for places in the slot that cannot flake. */
export function seededRandom(seed = 1): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export async function simulateSharedBudget(run: SharedBudgetRun): Promise<SharedBudgetResult> {
	const ceiling = run.ceilingPerMin ?? 300;
	const rate = run.requestsPerMinute ?? ceiling;
	const latency = run.latencyMs ?? 200;
	const concurrency =
		run.concurrency ?? Math.max(1, Math.ceil(run.executions / run.workers.length));
	const service = new ServiceThrottle(ceiling, run.shape);
	const start = Date.now();
	const queue = Array.from({ length: run.executions }, (_, i) => i);
	const acceptedAt: number[] = [];
	const allAcceptedAt: number[] = [];
	let firstSent = Number.POSITIVE_INFINITY;
	let drawn429 = 0;
	const refusedAt: number[] = [];
	let lost = 0;
	let seq = 0;
	let otherAccepted = 0;
	const perWorker = run.workers.map(() => 0);
	const throttles: Array<RequestThrottle | undefined> = run.workers.map(() => undefined);
	const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

	async function send(): Promise<ThrottleDecision> {
		firstSent = Math.min(firstSent, Date.now());
		// Arrival a few ms apart from the slot, differing per request (timers, the network).
		await wait(latency / 2 + ((seq++ * 7) % 5));
		const decision = service.take('client', Date.now());
		if (decision.allowed) allAcceptedAt.push(Date.now());
		await wait(latency / 2);
		return decision;
	}

	async function item(
		throttle: RequestThrottle,
		signal: AbortSignal,
		worker: number,
	): Promise<void> {
		const deadline = new Deadline(WRITE_TIMEOUT_MS, signal, Date.now, { startsAtFirstSlot: true });
		for (let attempt = 1; ; attempt++) {
			// As callApi: 429s are repeated until the item's deadline; then the item is lost.
			if (deadline.expired || (await throttle.acquire(deadline))) {
				lost++;
				return;
			}
			const sentAt = Date.now();
			const decision = await send();
			if (decision.allowed) {
				acceptedAt.push(Date.now());
				perWorker[worker]++;
				return;
			}
			drawn429++;
			refusedAt.push(Date.now());
			if (process.env.SIM_TRACE)
				console.log(
					`${((Date.now() - start) / 1000).toFixed(2)} 429 w${worker} rates ${throttles.map((t) => (t ? (t.currentRate() / 60).toFixed(2) : '-')).join(' ')}`,
				);
			const told = run.retryAfter ?? true;
			const header = told === true ? String(decision.retryAfterSec) : undefined;
			// The exact wait skips waitAfterThrottle's 1 s floor, which would round it up again.
			const exactMs = told === 'ms' ? countedFromSend(decision.waitMs, sentAt) : undefined;
			const pause =
				exactMs !== undefined
					? { waitMs: exactMs, holdMs: exactMs }
					: waitAfterThrottle(header, attempt, sentAt);
			const { waitMs, holdMs } = 'waitMs' in pause ? pause : { waitMs: 1_000, holdMs: 1_000 };
			// As callApi: the client holds, the request waits alone for what the hold does not cover.
			throttle.throttled(holdMs);
			if (waitMs > holdMs) await wait(waitMs);
		}
	}

	async function execution(throttle: RequestThrottle, worker: number): Promise<void> {
		const signal = new AbortController().signal;
		setMaxListeners(0, signal);
		let next = 0;
		const pool = Array.from({ length: concurrencyFor(rate) }, async () => {
			while (next < run.itemsPerExecution) {
				next++;
				await item(throttle, signal, worker);
			}
		});
		await Promise.all(pool);
	}

	async function worker(spec: SimWorker, index: number): Promise<void> {
		await wait(spec.joinAtMs ?? 0);
		const throttle = new RequestThrottle(rate);
		throttles[index] = throttle;
		const leaveAt = start + (spec.leaveAtMs ?? Number.POSITIVE_INFINITY);
		const lane = async () => {
			for (;;) {
				if (Date.now() >= leaveAt || queue.length === 0) return;
				queue.shift();
				await execution(throttle, index);
			}
		};
		await Promise.all(Array.from({ length: concurrency }, lane));
	}

	let done = false;
	const all = Promise.all(run.workers.map(worker)).then(() => {
		done = true;
	});
	const other = (async () => {
		if (!run.otherPerMin) return;
		while (!done) {
			await wait(60_000 / run.otherPerMin);
			if (done) return;
			firstSent = Math.min(firstSent, Date.now());
			const decision = service.take('client', Date.now());
			if (decision.allowed) {
				otherAccepted++;
				allAcceptedAt.push(Date.now());
			}
		}
	})();
	const limit = start + (run.limitMs ?? 3_600_000);
	while (!done && Date.now() < limit) await run.advance(1_000);
	await run.advance(1_000);
	if (!done) throw new Error('the simulated run did not end within its limit');
	await all;
	await other;

	const last = Math.max(...acceptedAt);
	const busySec = (last - firstSent) / 1000 + 60 / ceiling;
	allAcceptedAt.sort((a, b) => a - b);
	let maxPerMinute = 0;
	for (let i = 0, j = 0; i < allAcceptedAt.length; i++) {
		while (allAcceptedAt[i] - allAcceptedAt[j] >= 60_000) j++;
		maxPerMinute = Math.max(maxPerMinute, i - j + 1);
	}
	const ours = acceptedAt.length;
	const othersInBusy = allAcceptedAt.length - ours;
	return {
		accepted: ours,
		drawn429,
		lost,
		// With another system, the budget both spent together.
		ratio: (ours + othersInBusy) / busySec / (ceiling / 60),
		per100: (100 * drawn429) / Math.max(1, ours),
		maxPerMinute,
		wallSec: (Date.now() - start) / 1000,
		otherAccepted,
		perWorker,
		timeline: Array.from({ length: Math.ceil((last - start) / 10_000) }, (_, i) => {
			const within = (t: number) => t >= start + i * 10_000 && t < start + (i + 1) * 10_000;
			return `${acceptedAt.filter(within).length}/${refusedAt.filter(within).length}`;
		}).join(' '),
	};
}
