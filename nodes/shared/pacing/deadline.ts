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

	/** The time on the deadline's clock: the one clock every wait of the operation reads. */
	now(): number {
		return this.clock();
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
