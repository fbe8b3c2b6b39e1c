import { sleep } from 'n8n-workflow';

export type Clock = () => number;

/** `unsendable`: the request lost what it was to be sent with (its token died): it gave its slot back. */
export type SlotRefusal = 'cancelled' | 'deadline' | 'unsendable';

/** An item's place in its node's pool of items in flight. */
export interface PoolPlace {
	/** Frees the place while the item only waits (e.g. for a transaction to finish); idempotent. */
	release(): void;
}

/** What a request asks of its client's pace (`RequestThrottle` in throttle.ts keeps it). */
export interface Throttle {
	/** `sendable` is asked before booking and again at the slot: a request that cannot go books none. */
	acquire(deadline?: Deadline, sendable?: () => boolean): Promise<SlotRefusal | undefined>;
	throttled(pauseMs: number): void;
	/** The slots booked so far cannot be used (their token died): they are given back at once. */
	rebook(): void;
}

/** Every wait and request of an operation ends by it: polls, retries, throttle slots, answers. */
export class Deadline {
	private endsAt: number | undefined;

	/** With `startsAtFirstSlot`, waiting behind other executions of the client uses none of it. */
	constructor(
		readonly budgetMs: number,
		readonly cancelSignal?: AbortSignal,
		private readonly clock: Clock = Date.now,
		{ startsAtFirstSlot = false }: { startsAtFirstSlot?: boolean } = {},
	) {
		if (!startsAtFirstSlot) this.start();
	}

	get started(): boolean {
		return this.endsAt !== undefined;
	}

	start(): void {
		this.endsAt ??= this.clock() + Math.max(0, this.budgetMs);
	}

	now(): number {
		return this.clock();
	}

	remainingMs(): number {
		return Math.max(0, this.endsAt === undefined ? this.budgetMs : this.endsAt - this.clock());
	}

	get expired(): boolean {
		return this.remainingMs() <= 0;
	}

	get cancelled(): boolean {
		return this.cancelSignal?.aborted === true;
	}
}

/** Longest single timer: a cancelled wait leaves at most this much of a timer behind. */
export const SLEEP_STEP_MS = 1_000;

/** True when the whole time passed, false once the signal aborts. */
export async function pause(
	ms: number,
	signal?: AbortSignal,
	clock: Clock = Date.now,
): Promise<boolean> {
	const until = clock() + Math.max(0, ms);
	for (;;) {
		if (signal?.aborted) return false;
		const left = until - clock();
		if (left <= 0) return true;
		await new Promise<void>((resolve) => {
			const done = () => {
				signal?.removeEventListener('abort', done);
				resolve();
			};
			signal?.addEventListener('abort', done, { once: true });
			void sleep(Math.min(left, SLEEP_STEP_MS)).then(done);
		});
	}
}

/**
 * The promise's outcome, or an "aborted" failure as soon as the signal aborts: for a request whose
 * own wait cannot hear the signal (the credential's token request, behind n8n's helper).
 */
export async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) {
		promise.catch(() => undefined);
		throw new Error('aborted');
	}
	let stop = () => {};
	const aborted = new Promise<never>((_, reject) => {
		stop = () => reject(new Error('aborted'));
		signal.addEventListener('abort', stop, { once: true });
	});
	promise.catch(() => undefined); // an abandoned request may still fail later: nobody waits for it
	try {
		return await Promise.race([promise, aborted]);
	} finally {
		signal.removeEventListener('abort', stop);
	}
}

export function anySignal(signals: Array<AbortSignal | undefined>): {
	signal: AbortSignal;
	dispose: () => void;
} {
	const controller = new AbortController();
	const sources = signals.filter((s): s is AbortSignal => s !== undefined);
	const abort = () => controller.abort();
	for (const source of sources) source.addEventListener('abort', abort, { once: true });
	if (sources.some((source) => source.aborted)) abort();
	return {
		signal: controller.signal,
		dispose: () => sources.forEach((source) => source.removeEventListener('abort', abort)),
	};
}

/** When to check a write's result first, learned per client (`LearnedCompletion` in completion.ts). */
export interface CompletionEstimate {
	firstCheckDelayMs(): number;
	observeFirstCheck(elapsedMs: number, done: boolean): void;
}
