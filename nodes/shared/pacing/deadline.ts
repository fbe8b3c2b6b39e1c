import { sleep } from 'n8n-workflow';

/** Where time comes from; tests pass a fake one. */
export type Clock = () => number;

/**
 * The time an operation may take, and the execution's cancel signal. Every wait and every
 * request of the operation ends by it: polls, retries, throttle slots and the answers
 * themselves.
 */
export class Deadline {
	/** Undefined until the clock starts (see `startsAtFirstSlot`). */
	private endsAt: number | undefined;

	/**
	 * With `startsAtFirstSlot`, the clock starts when the throttle first grants a slot (see
	 * `start`): an item waiting its turn behind others of the same client (many executions on
	 * one worker) has not begun, so that wait does not use up its time.
	 */
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

	/** Starts the clock, once. */
	start(): void {
		this.endsAt ??= this.clock() + Math.max(0, this.budgetMs);
	}

	remainingMs(): number {
		if (this.endsAt === undefined) return Math.max(0, this.budgetMs);
		return Math.max(0, this.endsAt - this.clock());
	}

	get expired(): boolean {
		return this.remainingMs() <= 0;
	}

	get cancelled(): boolean {
		return this.cancelSignal?.aborted === true;
	}

	/** A shorter deadline inside this one (same cancel signal); never longer than what is left. */
	within(budgetMs: number): Deadline {
		return new Deadline(Math.min(budgetMs, this.remainingMs()), this.cancelSignal, this.clock, {
			startsAtFirstSlot: !this.started,
		});
	}
}

/** Longest single timer: a cancelled wait leaves at most this much of a timer behind. */
const SLEEP_STEP_MS = 1_000;

/**
 * Waits `ms`, or less if the signal aborts first. Resolves true when the whole time passed.
 * Sleeps in steps so that a cancelled run leaves no long timer behind it.
 */
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
		await untilAborted(sleep(Math.min(left, SLEEP_STEP_MS)), signal);
	}
}

/** `promise`, or earlier once the signal aborts; no listener stays behind. */
export async function untilAborted<T>(
	promise: Promise<T>,
	signal?: AbortSignal,
): Promise<T | undefined> {
	if (!signal) return await promise;
	if (signal.aborted) return undefined;
	let onAbort: () => void = () => {};
	const aborted = new Promise<undefined>((resolve) => {
		onAbort = () => resolve(undefined);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** One signal that aborts when any of the given ones does; `dispose` detaches it. */
export function anySignal(signals: Array<AbortSignal | undefined>): {
	signal: AbortSignal;
	dispose: () => void;
} {
	const controller = new AbortController();
	const sources = signals.filter((s): s is AbortSignal => s !== undefined);
	const abort = () => controller.abort();
	for (const source of sources) {
		if (source.aborted) {
			controller.abort();
			break;
		}
		source.addEventListener('abort', abort, { once: true });
	}
	return {
		signal: controller.signal,
		dispose: () => sources.forEach((source) => source.removeEventListener('abort', abort)),
	};
}
