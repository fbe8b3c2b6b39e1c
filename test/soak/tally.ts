import type { INodeExecutionData } from 'n8n-workflow';

/** What happened to the items of one kind, judged against the store's final state. */
export interface SoakTally {
	kind: string;
	sent: number;
	/** Item reported success and the store holds exactly what was sent, once. */
	delivered: number;
	/** Item carried an error (Continue On Fail). */
	reportedErrors: number;
	/** Of those, how many the store nevertheless holds (a write that went through before the failure). */
	reportedButApplied: number;
	/** Item reported success but the store does not hold it (or holds something else). */
	lost: number;
	/** Items the store holds more than once. */
	duplicated: number;
	/** Requests the store (or sandbox) saw, and faults injected among them. */
	requests: number;
	faults: Record<string, number>;
	/** Extra facts worth printing, e.g. idempotent repeats. */
	remarks: string[];
	/** A few error messages seen on error items, with counts. */
	errorSamples: Array<{ message: string; count: number }>;
	/** Error items by the HTTP status their message names ('none' for network errors and others). */
	errorStatuses: Record<string, number>;
	/** Error items whose message is empty or says nothing useful. */
	unclearErrors: number;
	seconds: number;
}

export function emptyTally(kind: string): SoakTally {
	return {
		kind,
		sent: 0,
		delivered: 0,
		reportedErrors: 0,
		reportedButApplied: 0,
		lost: 0,
		duplicated: 0,
		requests: 0,
		faults: {},
		remarks: [],
		errorSamples: [],
		errorStatuses: {},
		unclearErrors: 0,
		seconds: 0,
	};
}

export function errorOf(item: INodeExecutionData | undefined): string | undefined {
	const error = item?.json.error as unknown;
	if (error === undefined) return undefined;
	return typeof error === 'string'
		? error
		: ((error as { message?: string }).message ?? JSON.stringify(error));
}

/**
 * A clear error names what failed and why: more than a bare word, not n8n's generic fallback,
 * and not a stack trace.
 */
export function isClearError(message: string): boolean {
	return (
		message.trim().length >= 20 &&
		!/^\s*(undefined|null|\[object Object\])/.test(message) &&
		!/^\s+at\s/m.test(message)
	);
}

export function recordErrors(tally: SoakTally, messages: string[]): void {
	const counts = new Map<string, number>();
	for (const message of messages) {
		if (!isClearError(message)) tally.unclearErrors++;
		const status = /HTTP (\d{3})/.exec(message)?.[1] ?? 'none';
		tally.errorStatuses[status] = (tally.errorStatuses[status] ?? 0) + 1;
		// Ids differ per item; group by the message with ids and numbers masked.
		const shape = message
			.split('\n')[0]
			.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, '<id>')
			.replace(/(?<!HTTP |\d)\d+/g, '#')
			.slice(0, 160);
		counts.set(shape, (counts.get(shape) ?? 0) + 1);
	}
	const merged = new Map(tally.errorSamples.map((sample) => [sample.message, sample.count]));
	for (const [message, count] of counts) merged.set(message, (merged.get(message) ?? 0) + count);
	tally.errorSamples = [...merged]
		.map(([message, count]) => ({ message, count }))
		.sort((a, b) => b.count - a.count)
		.slice(0, 8);
}

export function addFaults(tally: SoakTally, faults: Record<string, number>): void {
	for (const [fault, count] of Object.entries(faults))
		tally.faults[fault] = (tally.faults[fault] ?? 0) + count;
}

export function totalFaults(tally: SoakTally): number {
	return Object.values(tally.faults).reduce((sum, count) => sum + count, 0);
}
