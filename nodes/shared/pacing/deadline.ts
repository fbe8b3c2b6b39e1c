export type Clock = () => number;

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
		if (this.endsAt === undefined) return Math.max(0, this.budgetMs);
		return Math.max(0, this.endsAt - this.clock());
	}

	get expired(): boolean {
		return this.remainingMs() <= 0;
	}

	get cancelled(): boolean {
		return this.cancelSignal?.aborted === true;
	}

	within(budgetMs: number): Deadline {
		return new Deadline(Math.min(budgetMs, this.remainingMs()), this.cancelSignal, this.clock, {
			startsAtFirstSlot: !this.started,
		});
	}
}
