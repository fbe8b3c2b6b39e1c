/** An item's place among the `limit` in flight. */
export interface PoolSlot {
	/**
	 * Gives the place to the next item while this one goes on without needing it (it only waits,
	 * e.g. for a transaction to finish). Idempotent; the place is given back at the end anyway.
	 */
	release(): void;
}

/**
 * Runs `task` over `items` with at most `limit` holding a place at once; results keep the
 * input order. If a task throws, no new task starts, the ones started finish, and the first
 * error is rethrown: nothing is left running in the background. Once `signal` aborts (the
 * execution was cancelled) no new task starts either; the slots of items never started stay
 * undefined.
 */
export async function mapWithConcurrency<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T, index: number, slot: PoolSlot) => Promise<R>,
	signal?: AbortSignal,
): Promise<Array<R | undefined>> {
	const results = new Array<R | undefined>(items.length);
	let failure: { error: unknown } | undefined;
	let free = Math.max(1, limit);
	// Resolves the one waiter for a free place (the loop below waits for one at a time).
	let wake: (() => void) | undefined;
	const giveBack = () => {
		free++;
		const waiter = wake;
		wake = undefined;
		waiter?.();
	};
	const started: Array<Promise<void>> = [];
	for (let index = 0; index < items.length; index++) {
		while (free === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
		if (failure || signal?.aborted) break;
		free--;
		let held = true;
		const slot: PoolSlot = {
			release: () => {
				if (!held) return;
				held = false;
				giveBack();
			},
		};
		started.push(
			task(items[index], index, slot).then(
				(result) => {
					results[index] = result;
					slot.release();
				},
				(error: unknown) => {
					failure ??= { error };
					slot.release();
				},
			),
		);
	}
	await Promise.all(started);
	if (failure) throw failure.error;
	return results;
}
