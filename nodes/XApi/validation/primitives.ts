/** Schemas for the xAPI data types used throughout a statement (xAPI-Data 2.4 and 4.x). */
import { caseHint, isPlainObject, listOf, quote, wrongKind } from './describe';
import {
	durationProblem,
	iriProblem,
	isIrl,
	isLanguageTag,
	isMbox,
	isMediaType,
	isSha1Hex,
	isSha2Hex,
	isStatementVersion,
	isUri,
	timestampProblem,
	uuidProblem,
} from './formats';
import { addTo, checked, problem, type Problems, type Schema } from './schema';

/** Text checked by `explain`, which says what is wrong with it (undefined when it is fine). */
function formattedText(expected: string, explain: (value: string) => string | undefined): Schema {
	return checked((value) => {
		if (typeof value !== 'string') return problem(wrongKind(expected, value));
		const message = explain(value);
		return message === undefined ? undefined : problem(message);
	});
}

const IRI_EXAMPLE = '"http://example.com/xapi/activities/course-1"';

export const iri = formattedText(`an IRI (an identifier such as ${IRI_EXAMPLE})`, (value) => {
	const reason = iriProblem(value);
	return reason && `${quote(value)} is not an IRI: ${reason}`;
});

export const irl = formattedText(
	'a web address (IRL) such as "https://example.com/page"',
	(value) => {
		const reason = iriProblem(value);
		if (reason) return `${quote(value)} is not a web address (IRL): ${reason}`;
		if (!isIrl(value)) {
			return `${quote(value)} is not a web address (IRL): expected a locator such as "https://example.com/page"`;
		}
		return undefined;
	},
);

export const uri = formattedText('a URI such as "https://openid.example.com/learner"', (value) => {
	const reason = iriProblem(value);
	if (reason) return `${quote(value)} is not a URI: ${reason}`;
	if (!isUri(value))
		return `${quote(value)} is not a URI: it contains characters outside ASCII that must be percent-encoded`;
	return undefined;
});

const MBOX_EXAMPLE = '"mailto:learner@example.com"';

export const mbox = formattedText(`a mailto address such as ${MBOX_EXAMPLE}`, (value) => {
	if (isMbox(value)) return undefined;
	if (!value.startsWith('mailto:') && isMbox(`mailto:${value}`)) {
		return `${quote(value)} is missing the "mailto:" prefix: write ${quote(`mailto:${value}`)}`;
	}
	return `${quote(value)} is not a mailto address: expected "mailto:" followed by one email address, like ${MBOX_EXAMPLE}`;
});

export const mboxSha1sum = formattedText(
	'the 40-character hexadecimal SHA-1 hash of a mailto address',
	(value) =>
		isSha1Hex(value)
			? undefined
			: `${quote(value)} is not a SHA-1 hash: expected exactly 40 hexadecimal characters (0-9, a-f)`,
);

export const uuid = formattedText(
	'a UUID such as "8f87ccde-bb56-4c2e-ab83-44982ef22df0"',
	(value) => {
		const reason = uuidProblem(value);
		return reason && `${quote(value)} is not a UUID (${reason})`;
	},
);

export const timestamp = formattedText(
	'an ISO 8601 timestamp such as "2015-05-01T12:30:00.000Z"',
	(value) => {
		const reason = timestampProblem(value);
		return reason && `${quote(value)} is not an ISO 8601 timestamp (${reason})`;
	},
);

export const duration = formattedText('an ISO 8601 duration such as "PT1H30M"', (value) => {
	const reason = durationProblem(value);
	return reason && `${quote(value)} is not an ISO 8601 duration (${reason})`;
});

const LANGUAGE_TAG_EXAMPLES = '"en", "en-US" or "zh-Hant"';

function languageTagMessage(tag: string): string {
	return `${quote(tag)} is not a valid RFC 5646 language tag (like ${LANGUAGE_TAG_EXAMPLES})`;
}

export const languageTag = formattedText(
	`a language tag such as ${LANGUAGE_TAG_EXAMPLES}`,
	(value) => (isLanguageTag(value) ? undefined : languageTagMessage(value)),
);

export const mediaType = formattedText(
	'an Internet media type such as "application/pdf"',
	(value) =>
		isMediaType(value)
			? undefined
			: `${quote(value)} is not an Internet media type (like "text/plain" or "application/pdf")`,
);

export const sha2 = formattedText('the hexadecimal SHA-2 hash of the attachment', (value) =>
	isSha2Hex(value)
		? undefined
		: `${quote(value)} is not a SHA-2 hash: expected 64 hexadecimal characters for SHA-256 (or 56, 96 or 128 for the other SHA-2 sizes)`,
);

export const statementVersion = formattedText('an xAPI version such as "1.0.0"', (value) =>
	isStatementVersion(value)
		? undefined
		: `${quote(value)} is not a supported xAPI version: use "1.0.0" (versions "1.0" and "1.0.x" are accepted)`,
);

/** Text restricted to the given values, which are case sensitive (xAPI-Data 2.2.s4.b1.b6). */
export function oneOf(values: readonly string[]): Schema {
	return formattedText(`text (${listOf(values)})`, (value) => {
		if (values.includes(value)) return undefined;
		const hint = caseHint(value, values);
		if (hint) return `${quote(value)} is not allowed: values are case sensitive, write "${hint}"`;
		return `must be ${listOf(values)}, but is ${quote(value)}`;
	});
}

/** Keys are language tags, values are text (xAPI-Data 4.2). */
export const languageMap = checked((value) => {
	if (!isPlainObject(value))
		return problem(wrongKind('a language map, an object such as {"en-US": "completed"}', value));
	let problems: Problems;
	for (const tag of Object.keys(value)) {
		if (!isLanguageTag(tag)) problems = addTo(problems, languageTagMessage(tag), [tag]);
		const text = value[tag];
		if (typeof text !== 'string') problems = addTo(problems, wrongKind('text', text), [tag]);
	}
	return problems;
});

/** Keys are IRIs; values may be any JSON value, null included (xAPI-Data 4.1). */
export const extensions = checked((value) => {
	if (!isPlainObject(value)) {
		return problem(wrongKind(`an object whose keys are IRIs such as ${IRI_EXAMPLE}`, value));
	}
	let problems: Problems;
	for (const key of Object.keys(value)) {
		const reason = iriProblem(key);
		if (reason)
			problems = addTo(problems, `the extension key ${quote(key)} is not an IRI: ${reason}`, [key]);
	}
	return problems;
});

/** A number within a range, e.g. a scaled score. */
export function numberWhere(
	isAllowed: (value: number) => boolean,
	explain: (value: number) => string,
): Schema {
	return checked((value) => {
		if (typeof value !== 'number') return problem(wrongKind('a number', value));
		return isAllowed(value) ? undefined : problem(explain(value));
	});
}

/** A property that may not appear here; `reason` says why. */
export function forbidden(reason: string): Schema {
	return checked((value) => (value === undefined ? undefined : problem(reason))).optional();
}
