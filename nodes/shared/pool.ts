/**
 * Runs `task` over `items` with at most `limit` in flight; results keep the input order.
 * If a task throws, no new task starts, the ones in flight finish, and the first error is
 * rethrown: nothing is left running in the background. Once `signal` aborts (the execution
 * was cancelled) no new task starts either; the slots of items never started stay undefined.
 */
export async function mapWithConcurrency<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T, index: number) => Promise<R>,
	signal?: AbortSignal,
): Promise<Array<R | undefined>> {
	const results = new Array<R | undefined>(items.length);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (!failure && !signal?.aborted && next < items.length) {
			const index = next++;
			try {
				results[index] = await task(items[index], index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
	await Promise.all(workers);
	if (failure) throw failure.error;
	return results;
}
