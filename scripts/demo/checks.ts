/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */

/** One claim the demo makes, checked against what really happened. */
export interface Check {
	label: string;
	ok: boolean;
	detail?: string;
}

/**
 * Collects the demo's checks and prints each as it is made, so the story and its proof read
 * together. The demo passes only if every check passed.
 */
export class Checklist {
	readonly checks: Check[] = [];

	/** Records a check and prints it with a tick or a cross; `detail` explains a failure. */
	check(label: string, ok: boolean, detail?: string): boolean {
		this.checks.push({ label, ok, detail });
		console.log(`     ${ok ? '✓' : '✗'} ${label}${!ok && detail ? `\n         ${detail}` : ''}`);
		return ok;
	}

	/** Checks that two values are deeply equal, showing both when they are not. */
	same(label: string, actual: unknown, expected: unknown): boolean {
		const a = stable(actual);
		const e = stable(expected);
		return this.check(label, a === e, `expected ${e}\n         got      ${a}`);
	}

	get failed(): Check[] {
		return this.checks.filter((check) => !check.ok);
	}
}

/** JSON with sorted keys, so that equal objects compare equal whatever their key order. */
export function stable(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(
					Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
				)
			: inner,
	);
}
