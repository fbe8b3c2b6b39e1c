/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function round(value: number, digits = 2): number {
	const scale = 10 ** digits;
	return Math.round(value * scale) / scale;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A target check as printed and stored: PASS/MISS never fails the run. */
export interface TargetCheck {
	what: string;
	target: string;
	value: string;
	pass: boolean;
}

export function check(what: string, target: string, value: string, pass: boolean): TargetCheck {
	return { what, target, value, pass };
}

/** A count whose target is none. */
export const none = (what: string, count: number) => check(what, '0', String(count), count === 0);
