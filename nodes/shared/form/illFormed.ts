import { wellFormed } from './input';

/** The path of the first string or key holding a lone surrogate, for a whole statement at once. */
export function illFormedAt(
	value: unknown,
	path: Array<string | number> = [],
): Array<string | number> | undefined {
	if (typeof value === 'string') return wellFormed(value) ? undefined : path;
	if (value === null || typeof value !== 'object') return undefined;
	for (const [key, entry] of Object.entries(value)) {
		const at = [...path, Array.isArray(value) ? Number(key) : key];
		if (!wellFormed(key)) return at;
		const found = illFormedAt(entry, at);
		if (found) return found;
	}
	return undefined;
}
