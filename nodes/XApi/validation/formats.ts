// The formats of xAPI values (xAPI-Data 4.x and the RFCs it names), each explained when not met.
import { z } from 'zod';

import { quote, wrong, wrongKind } from './problems';

type Check = (value: string) => string | undefined;

/** The schema, and a check of what it accepts that says what is wrong. */
function explained<T>(schema: z.ZodType<T>, explain: (value: T) => string | undefined) {
	return schema.superRefine((value, context) => {
		const message = explain(value);
		if (message !== undefined) context.addIssue({ code: 'custom', message });
	});
}

const text = (expected: string, explain: Check) => explained(z.string(wrong(expected)), explain);
function formatted(expected: string, what: string, problem: Check, bracketed = false) {
	return text(expected, (value) => {
		const reason = problem(value);
		return reason && `${quote(value)} is not ${what}${bracketed ? ` (${reason})` : `: ${reason}`}`;
	});
}

function unless(pattern: RegExp, reason: string): Check {
	return (value) => (pattern.test(value) ? undefined : reason);
}

const matching = (expected: string, what: string, re: RegExp, why: string, bracketed = false) =>
	formatted(expected, what, unless(re, why), bracketed);

export const numberWhere = (holds: (n: number) => boolean, problem: (n: number) => string) =>
	explained(z.number(wrong('a number')), (n) => (holds(n) ? undefined : problem(n)));

/** Infinity is refused as zod 4 does (JSON cannot carry it); NaN by both zod lines. */
export const number = numberWhere(Number.isFinite, (value) => wrongKind('a number', value));

// RFC 3987: a scheme, then a non-empty rest without characters IRIs never contain unescaped.
function iriProblem(value: string): string | undefined {
	if (value === '') return 'it is empty';
	if (!/^[A-Za-z][A-Za-z0-9+.-]*:./.test(value))
		return 'it must start with a scheme such as "http://" or "urn:"';
	if (/[\s<>"{}|\\^`\p{Cc}]|%(?![0-9A-Fa-f]{2})/u.test(value))
		return 'it contains spaces or characters such as < > " { } | \\ ^ that must be percent-encoded';
	return undefined;
}

const IRI_EXAMPLE = '"http://example.com/xapi/activities/course-1"';
export const iri = formatted(`an IRI (an identifier such as ${IRI_EXAMPLE})`, 'an IRI', iriProblem);

/** An IRL says where to find the resource (scheme://host…); a URI is an IRI in ASCII. */
const narrowedIri = (expected: string, what: string, pattern: RegExp, reason: string) =>
	formatted(expected, what, (value) => iriProblem(value) ?? unless(pattern, reason)(value));

export const irl = narrowedIri(
	'a web address (IRL) such as "https://example.com/page"',
	'a web address (IRL)',
	/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]/,
	'expected a locator such as "https://example.com/page"',
);

export const uri = narrowedIri(
	'a URI such as "https://openid.example.com/learner"',
	'a URI',
	/^[\x20-\x7e]*$/,
	'it contains characters outside ASCII that must be percent-encoded',
);
// "mailto:" followed by exactly one address: local part, "@", domain (or an address literal).
const ATOM = "[A-Za-z0-9!#$%&'*+/=_~\\u0080-\\uFFFF-]+";
const LABEL =
	'[A-Za-z0-9\\u0080-\\uFFFF](?:[A-Za-z0-9\\u0080-\\uFFFF-]*[A-Za-z0-9\\u0080-\\uFFFF])?';
const MBOX = new RegExp(
	`^mailto:${ATOM}(?:\\.${ATOM})*@(?:${LABEL}(?:\\.${LABEL})*|\\[[A-Za-z0-9.:]+\\])$`,
);
const MBOX_EXAMPLE = '"mailto:learner@example.com"';
export const mbox = text(`a mailto address such as ${MBOX_EXAMPLE}`, (value) => {
	if (MBOX.test(value)) return undefined;
	if (!value.startsWith('mailto:') && MBOX.test(`mailto:${value}`))
		return `${quote(value)} is missing the "mailto:" prefix: write ${quote(`mailto:${value}`)}`;
	return `${quote(value)} is not a mailto address: expected "mailto:" followed by one email address, like ${MBOX_EXAMPLE}`;
});

export const mboxSha1sum = formatted(
	'the 40-character hexadecimal SHA-1 hash of a mailto address',
	'a SHA-1 hash',
	unless(/^[0-9A-Fa-f]{40}$/, 'expected exactly 40 hexadecimal characters (0-9, a-f)'),
);

// SHA-224, SHA-256, SHA-384 and SHA-512 digests in hex.
export const sha2 = matching(
	'the hexadecimal SHA-2 hash of the attachment',
	'a SHA-2 hash',
	/^(?:[0-9A-Fa-f]{56}|[0-9A-Fa-f]{64}|[0-9A-Fa-f]{96}|[0-9A-Fa-f]{128})$/,
	'expected 64 hexadecimal characters for SHA-256 (or 56, 96 or 128 for the other SHA-2 sizes)',
);

// RFC 6838 type/subtype with optional parameters (token or quoted-string values).
export const mediaType = matching(
	'an Internet media type such as "application/pdf"',
	'an Internet media type',
	/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+=(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+|"(?:[^"\\]|\\.)*"))*\s*;?$/,
	'like "text/plain" or "application/pdf"',
	true,
);

// "1.0" or 1.0.x in Semantic Versioning 1.0.0 (optional pre-release suffix).
export const statementVersion = matching(
	'an xAPI version such as "1.0.0"',
	'a supported xAPI version',
	/^1\.0(?:\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z-]+)?)?$/,
	'use "1.0.0" (versions "1.0" and "1.0.x" are accepted)',
);

// Standard string form, RFC 4122 variant (the first digit of the fourth group is 8, 9, a or b).
const UUID_EXAMPLE = '"8f87ccde-bb56-4c2e-ab83-44982ef22df0"';
export const uuid = formatted(
	`a UUID such as ${UUID_EXAMPLE}`,
	'a UUID',
	(value) => {
		if (/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/i.test(value))
			return undefined;
		return /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i.test(value)
			? 'its fourth group must start with 8, 9, a or b (RFC 4122 variant)'
			: `expected 32 hexadecimal digits grouped 8-4-4-4-12, like ${UUID_EXAMPLE}`;
	},
	true,
);

// ISO 8601 combined date and time, extended (2015-05-01T12:30:00.000Z) or basic (20150501T123000Z) format.
const TIMESTAMP_EXTENDED =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::\d{2})?)?$/;
const TIMESTAMP_BASIC =
	/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?:\d{2})?)?$/;

export const timestamp = formatted(
	'an ISO 8601 timestamp such as "2015-05-01T12:30:00.000Z"',
	'an ISO 8601 timestamp',
	(value) => {
		if (/T.*-00(?::?00)?$/.test(value))
			return 'a time zone offset of minus zero is not allowed; write UTC as "Z" or "+00:00"';
		const parts = TIMESTAMP_EXTENDED.exec(value) ?? TIMESTAMP_BASIC.exec(value);
		if (!parts) {
			if (/^\d{4}-\d{2}-\d{2}$/.test(value))
				return 'a time is required after the date, like "2015-05-01T12:30:00Z"';
			if (/^\d{4}-\d{2}-\d{2}T.*[+-]\d{4}$/.test(value))
				return 'write the time zone offset with a colon, like "+01:00"';
			return 'expected a date and time like "2015-05-01T12:30:00.000Z" or "2015-05-01T14:30:00+02:00"';
		}
		const [, year, month, day, hour, minute, second = '00', zone = 'Z'] = parts;
		const [y, m, d] = [Number(year), Number(month), Number(day)];
		if (m < 1 || m > 12) return `month ${month} does not exist`;
		const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
		const days = m === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
		if (d < 1 || d > days) return `day ${day} does not exist in ${year}-${month}`;
		if (Number(hour) > 23) return `hour ${hour} does not exist (use 00 to 23)`;
		if (Number(minute) > 59) return `minute ${minute} does not exist`;
		// 60 is allowed for a leap second.
		if (Number(second) > 60) return `second ${second} does not exist`;
		// "Z" reads as an offset of 0 hours and 0 minutes.
		const wrongZone = Number(zone.slice(1, 3)) > 23 || Number(zone.slice(3).replace(':', '')) > 59;
		return wrongZone ? `the time zone offset "${zone}" does not exist` : undefined;
	},
	true,
);

// ISO 8601:2004 4.4.3.2: PnYnMnDTnHnMnS or PnW; only the smallest unit given may have a fraction.
const AMOUNT = '(\\d+(?:[.,]\\d+)?)';
const DURATION = new RegExp(
	`^P(?:${AMOUNT}Y)?(?:${AMOUNT}M)?(?:${AMOUNT}D)?(?:T(?:${AMOUNT}H)?(?:${AMOUNT}M)?(?:${AMOUNT}S)?)?$`,
);
// The platform's document lists "P16559.14S" as valid: seconds alone may drop the "T" ("M" could not).
const DURATION_WEEKS_OR_SECONDS = new RegExp(`^P${AMOUNT}[WS]$`);
export const duration = formatted(
	'an ISO 8601 duration such as "PT1H30M"',
	'an ISO 8601 duration',
	(value) => {
		if (DURATION_WEEKS_OR_SECONDS.test(value)) return undefined;
		const parts = DURATION.exec(value);
		if (parts) {
			const given = parts.slice(1).filter((part): part is string => part !== undefined);
			if (value.endsWith('T')) return '"T" must be followed by hours, minutes or seconds';
			if (given.length === 0) return 'it gives no amount of time (write zero as "PT0S")';
			if (given.slice(0, -1).some((part) => /[.,]/.test(part)))
				return 'only the last (smallest) unit may have a decimal fraction';
			return undefined;
		}
		if (value.startsWith('-')) return 'durations cannot be negative';
		if (!value.startsWith('P')) return 'it must start with "P", like "PT1H30M"';
		if (value.includes('W')) return 'weeks cannot be combined with other units';
		if (/^P\d{4}-?\d{2}/.test(value))
			return 'the alternative format (like "P0001-02-03T...") is not allowed';
		return 'expected a form like "PT4H35M59.14S", "P16559.14S", "P3Y1M29DT4H35M59.14S", "P3Y" or "P4W"';
	},
	true,
);

// RFC 5646 language tags: the langtag production, private-use tags and the irregular grandfathered tags.
const LANGUAGE = '(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})'; // with up to three extlangs
const VARIANT = '(?:-(?:[A-Za-z0-9]{5,8}|\\d[A-Za-z0-9]{3}))';
const EXTENSION = '(?:-[0-9A-WYZa-wyz](?:-[A-Za-z0-9]{2,8})+)';
const PRIVATE_USE = '(?:[Xx](?:-[A-Za-z0-9]{1,8})+)';
const LANGTAG = new RegExp(
	`^(?:${LANGUAGE}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|\\d{3}))?${VARIANT}*${EXTENSION}*(?:-${PRIVATE_USE})?|${PRIVATE_USE})$`,
);
const IRREGULAR_GRANDFATHERED =
	/^(?:en-gb-oed|i-(?:ami|bnn|default|enochian|hak|klingon|lux|mingo|navajo|pwn|tao|tay|tsu)|sgn-(?:be-fr|be-nl|ch-de))$/i;

/** RFC 5646 also makes a tag invalid when it repeats a variant or an extension singleton. */
function hasRepeatedSubtags(tag: string): boolean {
	// The first subtag is the language; everything after "x" is private use and free.
	const [, ...subtags] = tag.toLowerCase().split('-x-')[0].split('-');
	const extensions = subtags.findIndex((subtag) => subtag.length === 1);
	const variants = extensions < 0 ? subtags : subtags.slice(0, extensions);
	const counted = [
		...variants.filter((subtag) => subtag.length >= 5 || /^\d.{3}$/.test(subtag)),
		...subtags.filter((subtag) => subtag.length === 1),
	];
	return new Set(counted).size < counted.length;
}

const TAG_EXAMPLES = '"en", "en-US" or "zh-Hant"';
function languageTagProblem(tag: string): string | undefined {
	if (IRREGULAR_GRANDFATHERED.test(tag) || (LANGTAG.test(tag) && !hasRepeatedSubtags(tag)))
		return undefined;
	return `${quote(tag)} is not a valid RFC 5646 language tag (like ${TAG_EXAMPLES})`;
}

export const languageTag = text(`a language tag such as ${TAG_EXAMPLES}`, languageTagProblem);

function keyedObject(expected: string, problems: (key: string, value: unknown) => unknown[]) {
	return z.record(z.string(), z.unknown(), wrong(expected)).superRefine((object, context) => {
		for (const [key, value] of Object.entries(object))
			for (const message of problems(key, value).filter((m): m is string => typeof m === 'string'))
				context.addIssue({ code: 'custom', message, path: [key] });
	});
}

/** Keys are language tags, values are text (xAPI-Data 4.2). */
export const languageMap = keyedObject(
	'a language map, an object such as {"en-US": "completed"}',
	(key, value) => [languageTagProblem(key), typeof value !== 'string' && wrongKind('text', value)],
);

/** Keys are IRIs; values may be any JSON value, null included (xAPI-Data 4.1). */
export const extensions = keyedObject(
	`an object whose keys are IRIs such as ${IRI_EXAMPLE}`,
	(key) => {
		const reason = iriProblem(key);
		return [reason && `the extension key ${quote(key)} is not an IRI: ${reason}`];
	},
);
