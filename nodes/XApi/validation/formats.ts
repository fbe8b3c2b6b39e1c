/**
 * Plain format checks for the xAPI 1.0.3 data types (xAPI-Data 4.x and the formats named in 2.4).
 * Each check either returns a boolean or, where a user benefits from knowing why, the reason
 * a value fails (undefined when it is fine). Regular expressions are compiled once here.
 */

// RFC 3987: a scheme, then a non-empty rest without characters IRIs never contain unescaped.
const IRI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:./;
const IRI_FORBIDDEN_CHARACTER = /[\s<>"{}|\\^`\p{Cc}]/u;
const BROKEN_PERCENT_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const NON_ASCII = /[\u0080-\uFFFF]/;
// An IRL must say where to find the resource: scheme://host...
const IRL_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]/;

function hasForbiddenIriCharacters(value: string): boolean {
	return (
		IRI_FORBIDDEN_CHARACTER.test(value) ||
		(value.includes('%') && BROKEN_PERCENT_ESCAPE.test(value))
	);
}

/** Why a value is not an IRI, or undefined when it is one. */
export function iriProblem(value: string): string | undefined {
	if (value === '') return 'it is empty';
	if (!IRI_SCHEME.test(value)) return 'it must start with a scheme such as "http://" or "urn:"';
	if (hasForbiddenIriCharacters(value)) {
		return 'it contains spaces or characters such as < > " { } | \\ ^ that must be percent-encoded';
	}
	return undefined;
}

export function isIri(value: string): boolean {
	return IRI_SCHEME.test(value) && !hasForbiddenIriCharacters(value);
}

export function isIrl(value: string): boolean {
	return isIri(value) && IRL_AUTHORITY.test(value);
}

/** A URI is an IRI restricted to ASCII characters. */
export function isUri(value: string): boolean {
	return isIri(value) && !NON_ASCII.test(value);
}

// "mailto:" followed by exactly one address: local part, "@", domain (or an address literal).
const LOCAL_PART_ATOM = "[A-Za-z0-9!#$%&'*+/=_~\\u0080-\\uFFFF-]+";
const DOMAIN_LABEL =
	'[A-Za-z0-9\\u0080-\\uFFFF](?:[A-Za-z0-9\\u0080-\\uFFFF-]*[A-Za-z0-9\\u0080-\\uFFFF])?';
const MBOX = new RegExp(
	`^mailto:${LOCAL_PART_ATOM}(?:\\.${LOCAL_PART_ATOM})*@(?:${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*|\\[[A-Za-z0-9.:]+\\])$`,
);

export function isMbox(value: string): boolean {
	return MBOX.test(value);
}

const SHA1_HEX = /^[0-9A-Fa-f]{40}$/;

export function isSha1Hex(value: string): boolean {
	return SHA1_HEX.test(value);
}

// SHA-224, SHA-256, SHA-384 and SHA-512 digests in hex.
const SHA2_HEX = /^(?:[0-9A-Fa-f]{56}|[0-9A-Fa-f]{64}|[0-9A-Fa-f]{96}|[0-9A-Fa-f]{128})$/;

export function isSha2Hex(value: string): boolean {
	return SHA2_HEX.test(value);
}

// Standard string form, RFC 4122 variant (the first digit of the fourth group is 8, 9, a or b).
const UUID =
	/^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$/;
const UUID_SHAPE = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

export function uuidProblem(value: string): string | undefined {
	if (UUID.test(value)) return undefined;
	if (UUID_SHAPE.test(value)) {
		return 'its fourth group must start with 8, 9, a or b (RFC 4122 variant)';
	}
	return 'expected 32 hexadecimal digits grouped 8-4-4-4-12, like "8f87ccde-bb56-4c2e-ab83-44982ef22df0"';
}

// ISO 8601 combined date and time, extended (2015-05-01T12:30:00.000Z) or basic (20150501T123000Z) format.
const TIMESTAMP_EXTENDED =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::\d{2})?)?$/;
const TIMESTAMP_BASIC =
	/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?:\d{2})?)?$/;
const NEGATIVE_ZERO_OFFSET = /-00(?::?00)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_WITH_BASIC_OFFSET = /^\d{4}-\d{2}-\d{2}T.*[+-]\d{4}$/;

function daysInMonth(year: number, month: number): number {
	if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
	return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// The usual form needs no further checks: days up to 28 exist in every month, offsets are UTC or positive.
const COMMON_TIMESTAMP =
	/^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|\+(?:[01]\d|2[0-3]):[0-5]\d)$/;

export function timestampProblem(value: string): string | undefined {
	if (COMMON_TIMESTAMP.test(value)) return undefined;
	const timeStart = value.indexOf('T');
	if (timeStart > 0 && NEGATIVE_ZERO_OFFSET.test(value.slice(timeStart))) {
		return 'a time zone offset of minus zero is not allowed; write UTC as "Z" or "+00:00"';
	}
	const parts = TIMESTAMP_EXTENDED.exec(value) ?? TIMESTAMP_BASIC.exec(value);
	if (!parts) {
		if (DATE_ONLY.test(value))
			return 'a time is required after the date, like "2015-05-01T12:30:00Z"';
		if (DATE_WITH_BASIC_OFFSET.test(value))
			return 'write the time zone offset with a colon, like "+01:00"';
		return 'expected a date and time like "2015-05-01T12:30:00.000Z" or "2015-05-01T14:30:00+02:00"';
	}
	const [, year, month, day, hour, minute, second, zone] = parts;
	const monthNumber = Number(month);
	if (monthNumber < 1 || monthNumber > 12) return `month ${month} does not exist`;
	if (Number(day) < 1 || Number(day) > daysInMonth(Number(year), monthNumber)) {
		return `day ${day} does not exist in ${year}-${month}`;
	}
	if (Number(hour) > 23) return `hour ${hour} does not exist (use 00 to 23)`;
	if (Number(minute) > 59) return `minute ${minute} does not exist`;
	// 60 is allowed for a leap second.
	if (second !== undefined && Number(second) > 60) return `second ${second} does not exist`;
	if (zone !== undefined && zone !== 'Z') {
		if (Number(zone.slice(1, 3)) > 23) return `the time zone offset "${zone}" does not exist`;
		if (zone.length > 3 && Number(zone.slice(-2)) > 59)
			return `the time zone offset "${zone}" does not exist`;
	}
	return undefined;
}

// ISO 8601:2004 4.4.3.2: PnYnMnDTnHnMnS or PnW; only the smallest unit given may have a fraction.
const AMOUNT = '(\\d+(?:[.,]\\d+)?)';
const DURATION = new RegExp(
	`^P(?:${AMOUNT}Y)?(?:${AMOUNT}M)?(?:${AMOUNT}D)?(?:T(?:${AMOUNT}H)?(?:${AMOUNT}M)?(?:${AMOUNT}S)?)?$`,
);
const DURATION_WEEKS = new RegExp(`^P${AMOUNT}W$`);
// The platform's xAPI document lists "P16559.14S" (seconds only, without the "T") among its valid
// forms, so a period given only in seconds is accepted with or without the "T". No other unit
// may drop the "T": without it "M" would mean months.
const DURATION_SECONDS_ONLY = new RegExp(`^P${AMOUNT}S$`);
const DURATION_ALTERNATIVE_FORMAT = /^P\d{4}-?\d{2}/;
const DECIMAL_FRACTION = /[.,]/;

export function durationProblem(value: string): string | undefined {
	if (DURATION_WEEKS.test(value) || DURATION_SECONDS_ONLY.test(value)) return undefined;
	const parts = DURATION.exec(value);
	if (parts) {
		const given = parts.slice(1).filter((part): part is string => part !== undefined);
		if (value.endsWith('T')) return '"T" must be followed by hours, minutes or seconds';
		if (given.length === 0) return 'it gives no amount of time (write zero as "PT0S")';
		if (given.slice(0, -1).some((part) => DECIMAL_FRACTION.test(part))) {
			return 'only the last (smallest) unit may have a decimal fraction';
		}
		return undefined;
	}
	if (value.startsWith('-')) return 'durations cannot be negative';
	if (!value.startsWith('P')) return 'it must start with "P", like "PT1H30M"';
	if (value.includes('W')) return 'weeks cannot be combined with other units';
	if (DURATION_ALTERNATIVE_FORMAT.test(value)) {
		return 'the alternative format (like "P0001-02-03T...") is not allowed';
	}
	return 'expected a form like "PT4H35M59.14S", "P16559.14S", "P3Y1M29DT4H35M59.14S", "P3Y" or "P4W"';
}

// RFC 5646 language tags: the langtag production, private-use tags and the irregular grandfathered tags.
const LANGUAGE = '(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})'; // with up to three extlangs
const SCRIPT = '(?:-[A-Za-z]{4})';
const REGION = '(?:-(?:[A-Za-z]{2}|\\d{3}))';
const VARIANT = '(?:-(?:[A-Za-z0-9]{5,8}|\\d[A-Za-z0-9]{3}))';
const EXTENSION = '(?:-[0-9A-WYZa-wyz](?:-[A-Za-z0-9]{2,8})+)';
const PRIVATE_USE = '(?:[Xx](?:-[A-Za-z0-9]{1,8})+)';
const LANGTAG = new RegExp(
	`^(?:${LANGUAGE}${SCRIPT}?${REGION}?${VARIANT}*${EXTENSION}*(?:-${PRIVATE_USE})?|${PRIVATE_USE})$`,
);
const IRREGULAR_GRANDFATHERED = new Set([
	'en-gb-oed',
	'i-ami',
	'i-bnn',
	'i-default',
	'i-enochian',
	'i-hak',
	'i-klingon',
	'i-lux',
	'i-mingo',
	'i-navajo',
	'i-pwn',
	'i-tao',
	'i-tay',
	'i-tsu',
	'sgn-be-fr',
	'sgn-be-nl',
	'sgn-ch-de',
]);

function isVariant(subtag: string): boolean {
	return subtag.length >= 5 || (subtag.length === 4 && subtag[0] >= '0' && subtag[0] <= '9');
}

/** RFC 5646 also makes a tag invalid when it repeats a variant or an extension singleton. */
function hasRepeatedSubtags(tag: string): boolean {
	const subtags = tag.toLowerCase().split('-');
	const seen = new Set<string>();
	let inExtensions = false;
	// The first subtag is the language; everything after "x" is private use and free.
	for (let index = 1; index < subtags.length && subtags[index] !== 'x'; index++) {
		const subtag = subtags[index];
		if (subtag.length === 1) inExtensions = true;
		else if (inExtensions || !isVariant(subtag)) continue;
		if (seen.has(subtag)) return true;
		seen.add(subtag);
	}
	return false;
}

// Language maps repeat the same few tags constantly; remember recent answers.
const languageTagCache = new Map<string, boolean>();
const LANGUAGE_TAG_CACHE_LIMIT = 512;

export function isLanguageTag(tag: string): boolean {
	const cached = languageTagCache.get(tag);
	if (cached !== undefined) return cached;
	const valid =
		IRREGULAR_GRANDFATHERED.has(tag.toLowerCase()) ||
		(LANGTAG.test(tag) && !hasRepeatedSubtags(tag));
	if (languageTagCache.size >= LANGUAGE_TAG_CACHE_LIMIT) languageTagCache.clear();
	languageTagCache.set(tag, valid);
	return valid;
}

// RFC 6838 type/subtype with optional parameters (token or quoted-string values).
const MEDIA_TYPE =
	/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+=(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+|"(?:[^"\\]|\\.)*"))*\s*;?$/;

export function isMediaType(value: string): boolean {
	return MEDIA_TYPE.test(value);
}

// Statement versions: "1.0" or 1.0.x in Semantic Versioning 1.0.0 (optional pre-release suffix).
const STATEMENT_VERSION = /^1\.0(?:\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z-]+)?)?$/;

export function isStatementVersion(value: string): boolean {
	return STATEMENT_VERSION.test(value);
}
