import type { PoolPlace } from '../pacing/time';

/** On a failure or an abort no task starts and the started ones finish: none runs on unseen. */
export async function mapWithConcurrency<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T, index: number, place: PoolPlace) => Promise<R>,
	signal?: AbortSignal,
): Promise<Array<R | undefined>> {
	const results = new Array<R | undefined>(items.length);
	let failure: { error: unknown } | undefined;
	let free = Math.max(1, limit);
	let wake: (() => void) | undefined;
	const started: Array<Promise<void>> = [];
	for (let index = 0; index < items.length; index++) {
		while (free === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
		if (failure || signal?.aborted) break;
		free--;
		let held = true;
		const slot: PoolPlace = {
			release: () => {
				if (!held) return;
				held = false;
				free++;
				wake?.();
				wake = undefined;
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
