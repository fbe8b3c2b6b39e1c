/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Queue mode in one process, on jest's fake clock: workers, each with its own RequestThrottle (no
 * memory shared, as n8n workers in separate processes), send items through the package's callApi
 * to one platform client: the sandbox's limiter, answered as n8n's request helper answers (a 429
 * with Retry-After in whole seconds, or without). Executions wait on one queue; a worker runs up
 * to `concurrency` of them at once, each with its own cancel signal and the node's pool of items
 * in flight. Workers may join or leave (stop taking executions, finish those they run) mid-run.
 */
import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { mapWithConcurrency } from '../../nodes/shared/items/pool';
import { RequestThrottle, concurrencyFor } from '../../nodes/shared/pacing/throttle';
import { Deadline } from '../../nodes/shared/pacing/time';
import { callApi, type ApiCall, type RequestingFunctions } from '../../nodes/shared/request/call';
import { THROTTLE_SHAPES, Throttle as Limiter, type ThrottleShape } from '../../sandbox/throttle';

/** The platform's ceiling per client, and the credential's Requests per Minute. */
const CEILING = 300;
/** An LMS write's Timeout by default (Options → Timeout): its 429s are repeated until then. */
const WRITE_TIMEOUT_MS = 120_000;
const ORIGIN = 'https://lms.test';
const RUN_LIMIT_MS = 3_600_000;

interface Worker {
	/** When it starts taking executions, ms after the start (0). */
	joinAtMs?: number;
	/** When it stops taking executions (it finishes those it runs), ms after the start. */
	leaveAtMs?: number;
}

interface Grid {
	workers: Worker[];
	executions: number;
	itemsPerExecution: number;
	/** Executions a worker runs at once (n8n worker --concurrency). */
	concurrency: number;
	/** How the platform counts its minute (the sandbox's default unless given). */
	shape?: ThrottleShape;
	/** Whether its 429s carry Retry-After (true unless given). */
	retryAfter?: boolean;
	latencyMs?: number;
}

interface GridResult {
	/** When each accepted request reached the platform, ms after the start. */
	acceptedAt: number[];
	refused: number;
	/** Why items failed (their 429s outlasted the Timeout, or anything else). */
	failures: string[];
	/** The most 429s any one item drew. */
	mostRefusedItem: number;
	acceptedPerWorker: number[];
	/** Accepted / (last accepted − first sent + one interval) / ceiling. */
	ratio: number;
	/** Most accepted in any 60 s. */
	maxPerMinute: number;
}

/** Random numbers the same on every run (mulberry32): the throttle's places in the slot cannot flake. */
function seededRandom(seed = 1): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** n8n's request helper in front of the sandbox's limiter: half the latency to arrive, half to answer. */
function platform(limiter: Limiter, grid: Grid) {
	const latency = grid.latencyMs ?? 200;
	const log = {
		firstSentAt: Number.POSITIVE_INFINITY,
		acceptedAt: [] as number[],
		refusedOf: new Map<string, number>(),
	};
	let seq = 0;
	const helpers = {
		async httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions) {
			log.firstSentAt = Math.min(log.firstSentAt, Date.now());
			// Arrival a few ms apart from the slot, differing per request (timers, the network).
			await wait(latency / 2 + ((seq++ * 7) % 5));
			const decision = limiter.take('client', Date.now());
			if (decision.allowed) log.acceptedAt.push(Date.now());
			else log.refusedOf.set(options.url, (log.refusedOf.get(options.url) ?? 0) + 1);
			await wait(latency / 2);
			const headers: Record<string, string> = { 'content-type': 'application/json' };
			const text = decision.allowed ? '{"request_id":"r"}' : '{"message":"Too Many Requests"}';
			const body = Readable.from([Buffer.from(text)]);
			if (decision.allowed) return { statusCode: 200, headers, body };
			if (grid.retryAfter ?? true) headers['retry-after'] = String(decision.retryAfterSec);
			// As n8n's helper fails on a status: axios's error, the answer on it.
			throw Object.assign(new Error('Request failed with status code 429'), {
				response: { status: 429, headers, data: body },
			});
		},
	};
	return { context: { helpers } as unknown as RequestingFunctions, log };
}

async function runGrid(grid: Grid): Promise<GridResult> {
	const { context, log } = platform(new Limiter(CEILING, grid.shape), grid);
	const start = Date.now();
	const queue = Array.from({ length: grid.executions }, (_, i) => i);
	const failures: string[] = [];
	const acceptedPerWorker = grid.workers.map(() => 0);

	async function execution(id: number, throttle: RequestThrottle, worker: number): Promise<void> {
		const signal = new AbortController().signal;
		setMaxListeners(0, signal);
		const urls = Array.from(
			{ length: grid.itemsPerExecution },
			(_, i) => `${ORIGIN}/items/${id}-${i}`,
		);
		await mapWithConcurrency(urls, concurrencyFor(CEILING), async (url) => {
			const deadline = new Deadline(WRITE_TIMEOUT_MS, signal, Date.now, {
				startsAtFirstSlot: true,
			});
			const call: ApiCall = {
				credentialType: 'learningPlatformOAuth2Api',
				method: 'POST',
				url,
				origin: ORIGIN,
				requestTimeoutMs: 30_000,
				deadline,
				retry: { safeToRepeat: false },
				throttle,
			};
			await callApi(context, call).then(
				() => acceptedPerWorker[worker]++,
				(error: Error) => failures.push(`${url}: ${error.message}`),
			);
		});
	}

	async function worker(spec: Worker, index: number): Promise<void> {
		await wait(spec.joinAtMs ?? 0);
		const throttle = new RequestThrottle(CEILING);
		const leaveAt = start + (spec.leaveAtMs ?? Number.POSITIVE_INFINITY);
		const lane = async () => {
			while (Date.now() < leaveAt && queue.length > 0)
				await execution(queue.shift()!, throttle, index);
		};
		await Promise.all(Array.from({ length: grid.concurrency }, lane));
	}

	let done = false;
	const all = Promise.all(grid.workers.map(worker)).then(() => (done = true));
	while (!done && Date.now() < start + RUN_LIMIT_MS) await jest.advanceTimersByTimeAsync(1_000);
	if (!done) throw new Error('the simulated run did not end within its limit');
	await all;

	const acceptedAt = log.acceptedAt;
	const busySec = (Math.max(...acceptedAt) - log.firstSentAt) / 1000 + 60 / CEILING;
	let maxPerMinute = 0;
	for (let i = 0, j = 0; i < acceptedAt.length; i++) {
		while (acceptedAt[i] - acceptedAt[j] >= 60_000) j++;
		maxPerMinute = Math.max(maxPerMinute, i - j + 1);
	}
	const refusals = [...log.refusedOf.values()];
	return {
		acceptedAt: acceptedAt.map((t) => t - start),
		refused: refusals.reduce((sum, count) => sum + count, 0),
		failures,
		mostRefusedItem: Math.max(0, ...refusals),
		acceptedPerWorker,
		ratio: acceptedAt.length / busySec / (CEILING / 60),
		maxPerMinute,
	};
}

let random: jest.SpyInstance;
beforeEach(() => {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	random = jest.spyOn(Math, 'random').mockImplementation(seededRandom());
});
afterEach(() => {
	jest.useRealTimers();
	random.mockRestore();
});

describe('queue mode: processes sharing one client budget, sharing no memory (simulated)', () => {
	test.each([2, 3, 4])(
		'%i processes at the default rate converge to the shared ceiling and lose nothing',
		async (processes) => {
			// Each process sends one item at a time, back to back, for ten minutes.
			const result = await runGrid({
				workers: Array.from({ length: processes }, () => ({ leaveAtMs: 10 * 60_000 })),
				executions: 10 * CEILING,
				itemsPerExecution: 1,
				concurrency: 1,
				latencyMs: 4,
			});
			const settled = result.acceptedAt.filter((t) => t >= 4 * 60_000 && t < 10 * 60_000).length;
			// After the first minutes together they keep the service's minute full…
			expect(settled / (6 * CEILING)).toBeGreaterThanOrEqual(0.95);
			// …with 429s a bounded share of the requests (the price of climbing back at 3 % a second:
			// a process left alone regains the full rate within half a minute; with one cut per
			// ACCEPTANCE_WINDOW_MS, 4 processes draw about one for four accepted), and none starved.
			expect(result.refused / result.acceptedAt.length).toBeLessThan(0.25);
			expect(result.mostRefusedItem).toBeLessThan(12);
			expect(result.failures).toEqual([]);
		},
		60_000,
	);
});

describe('queue mode: one process on every limiter the platform may run (simulated)', () => {
	test.each(
		THROTTLE_SHAPES.flatMap((shape) => [true, false].map((told) => [shape, told] as const)),
	)(
		'%s, Retry-After %s: no 429 drawn, the whole pace kept',
		async (shape, retryAfter) => {
			const result = await runGrid({
				workers: [{}],
				executions: 2,
				itemsPerExecution: 200,
				concurrency: 2,
				shape,
				retryAfter,
			});
			expect(result.acceptedAt).toHaveLength(400);
			// A fixed 6 s window of 30 drew 5 429s a run when sends fell anywhere in a slot's first half.
			expect(result.refused).toBe(0);
			expect(result.ratio).toBeGreaterThanOrEqual(0.98);
		},
		60_000,
	);
});

describe('queue mode: workers joining and leaving (simulated)', () => {
	test('a worker stopped and one started mid-run: nothing lost, the budget kept busy', async () => {
		const result = await runGrid({
			workers: [{ leaveAtMs: 40_000 }, {}, { joinAtMs: 20_000 }],
			executions: 12,
			itemsPerExecution: 40,
			concurrency: 2,
		});
		expect(result.acceptedAt).toHaveLength(480);
		expect(result.failures).toEqual([]);
		expect(result.maxPerMinute).toBeLessThanOrEqual(CEILING);
		// The three workers each ran executions, and together kept most of the ceiling busy.
		expect(result.acceptedPerWorker.every((count) => count > 0)).toBe(true);
		expect(result.ratio).toBeGreaterThan(0.85);
	}, 60_000);
});
