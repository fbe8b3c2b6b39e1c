/**
 * How a node reports failing items when Continue On Fail is off: before sending, every invalid
 * item is named at once; after a failure, the message says how far the run got.
 */

type Described = Error & { description?: string | null };

/** Adds a paragraph to an n8n error's description (shown under its message). */
export function appendDescription(error: unknown, text: string): void {
	if (!error || typeof error !== 'object') return;
	const e = error as Described;
	e.description = e.description ? `${e.description}\n\n${text}` : text;
}

/** Throws the first item error, its description listing the other invalid items. */
export function assertAllValid(prepared: ReadonlyArray<{ error: unknown } | object>): void {
	const invalid = prepared.flatMap((entry) =>
		'error' in entry ? [(entry as { error: unknown }).error as Described] : [],
	);
	if (invalid.length === 0) return;
	const first = invalid[0];
	if (invalid.length > 1) {
		const others = invalid.slice(1, 20).map((e) => `• ${e.message}`);
		const more = invalid.length > 20 ? [`• … and ${invalid.length - 20} more`] : [];
		appendDescription(
			first,
			`${invalid.length} items are invalid; nothing was sent. The others:\n${[...others, ...more].join('\n')}`,
		);
	}
	throw first;
}

export const CONTINUE_ON_FAIL_HINT =
	'Turn on "Continue On Fail" (Settings → On Error) to process every item and get an error item for each failing one.';

/** Says how far the run got, so a stopped run is never a silent half batch. */
export function withProgress(error: unknown, completed: number, total: number): unknown {
	if (total <= 1) return error;
	appendDescription(
		error,
		`${completed} of ${total} items had completed before this failure; items not yet started were not sent. ${CONTINUE_ON_FAIL_HINT}`,
	);
	return error;
}
