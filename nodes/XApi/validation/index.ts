// xAPI 1.0.3 statements (xAPI-Data 2.2 to 2.4, 4.x): every rule a record store enforces, in words for
// people who do not write code. `chosen` schemas report every problem at once, under zod 3.25 and 4.
import { z } from 'zod';

import { isPlainObject } from '../../shared/form/input';

const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

function describeValue(value: unknown): string {
	if (typeof value === 'string') return value === '' ? 'empty text' : `the text ${quote(value)}`;
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return `the value ${value}`;
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;

/** Null, missing and quoted values get their own wording, for people who do not write code. */
function wrongKind(expected: string, value: unknown): string {
	if (value === undefined) return `is required but missing; expected ${expected}`;
	if (value === null) return `must not be null: remove the property or give it ${expected}`;
	const message = `must be ${expected}, but is ${describeValue(value)}`;
	if (expected === 'a number' && typeof value === 'string' && NUMBER_TEXT.test(value)) {
		return `${message} (write the number without quotes)`;
	}
	if (expected === 'true or false' && (value === 'true' || value === 'false')) {
		return `${message} (write ${value} without quotes)`;
	}
	return message;
}

function caseHint(value: unknown, allowed: readonly string[]): string | undefined {
	if (typeof value !== 'string') return undefined;
	const lower = value.toLowerCase();
	return allowed.find((candidate) => candidate.toLowerCase() === lower && candidate !== value);
}

function listOf(values: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
	const quoted = values.map((value) => `"${value}"`);
	if (quoted.length <= 1) return quoted.join('');
	return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}

/** Allowed values are case sensitive (xAPI-Data 2.2.s4.b1.b6). */
function notAllowed(value: unknown, allowed: readonly string[]): string {
	if (value === undefined) return `is required and must be ${listOf(allowed)}`;
	if (typeof value !== 'string') return wrongKind(`text (${listOf(allowed)})`, value);
	const hint = caseHint(value, allowed);
	if (hint) return `${quote(value)} is not allowed: values are case sensitive, write "${hint}"`;
	return `must be ${listOf(allowed)}, but is ${quote(value)}`;
}

/** The same words for every issue zod raises itself: zod 3.25 reads `errorMap`, zod 4 `error`. */
function says(message: (value: unknown) => string) {
	return {
		errorMap: (_issue: unknown, context: { data: unknown }) => ({ message: message(context.data) }),
		error: (issue: { input?: unknown }) => message(issue.input),
	};
}

const wrong = (expected: string) => says((value) => wrongKind(expected, value));

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

// RFC 3987: a scheme, then a non-empty rest without characters IRIs never contain unescaped.
function iriProblem(value: string): string | undefined {
	if (value === '') return 'it is empty';
	if (!/^[A-Za-z][A-Za-z0-9+.-]*:./.test(value)) {
		return 'it must start with a scheme such as "http://" or "urn:"';
	}
	if (/[\s<>"{}|\\^`\p{Cc}]|%(?![0-9A-Fa-f]{2})/u.test(value)) {
		return 'it contains spaces or characters such as < > " { } | \\ ^ that must be percent-encoded';
	}
	return undefined;
}

const IRI_EXAMPLE = '"http://example.com/xapi/activities/course-1"';
const iri = formatted(`an IRI (an identifier such as ${IRI_EXAMPLE})`, 'an IRI', iriProblem);

/** An IRL says where to find the resource (scheme://host…); a URI is an IRI in ASCII. */
const narrowedIri = (expected: string, what: string, pattern: RegExp, reason: string) =>
	formatted(expected, what, (value) => iriProblem(value) ?? unless(pattern, reason)(value));

const irl = narrowedIri(
	'a web address (IRL) such as "https://example.com/page"',
	'a web address (IRL)',
	/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]/,
	'expected a locator such as "https://example.com/page"',
);

const uri = narrowedIri(
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

const mbox = text(`a mailto address such as ${MBOX_EXAMPLE}`, (value) => {
	if (MBOX.test(value)) return undefined;
	if (!value.startsWith('mailto:') && MBOX.test(`mailto:${value}`)) {
		return `${quote(value)} is missing the "mailto:" prefix: write ${quote(`mailto:${value}`)}`;
	}
	return `${quote(value)} is not a mailto address: expected "mailto:" followed by one email address, like ${MBOX_EXAMPLE}`;
});

const mboxSha1sum = formatted(
	'the 40-character hexadecimal SHA-1 hash of a mailto address',
	'a SHA-1 hash',
	unless(/^[0-9A-Fa-f]{40}$/, 'expected exactly 40 hexadecimal characters (0-9, a-f)'),
);

// SHA-224, SHA-256, SHA-384 and SHA-512 digests in hex.
const sha2 = formatted(
	'the hexadecimal SHA-2 hash of the attachment',
	'a SHA-2 hash',
	unless(
		/^(?:[0-9A-Fa-f]{56}|[0-9A-Fa-f]{64}|[0-9A-Fa-f]{96}|[0-9A-Fa-f]{128})$/,
		'expected 64 hexadecimal characters for SHA-256 (or 56, 96 or 128 for the other SHA-2 sizes)',
	),
);

// RFC 6838 type/subtype with optional parameters (token or quoted-string values).
const mediaType = formatted(
	'an Internet media type such as "application/pdf"',
	'an Internet media type',
	unless(
		/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+=(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+|"(?:[^"\\]|\\.)*"))*\s*;?$/,
		'like "text/plain" or "application/pdf"',
	),
	true,
);

// "1.0" or 1.0.x in Semantic Versioning 1.0.0 (optional pre-release suffix).
const statementVersion = formatted(
	'an xAPI version such as "1.0.0"',
	'a supported xAPI version',
	unless(
		/^1\.0(?:\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z-]+)?)?$/,
		'use "1.0.0" (versions "1.0" and "1.0.x" are accepted)',
	),
);

// Standard string form, RFC 4122 variant (the first digit of the fourth group is 8, 9, a or b).
const UUID_EXAMPLE = '"8f87ccde-bb56-4c2e-ab83-44982ef22df0"';
const uuid = formatted(
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

function timestampProblem(value: string): string | undefined {
	if (/T.*-00(?::?00)?$/.test(value)) {
		return 'a time zone offset of minus zero is not allowed; write UTC as "Z" or "+00:00"';
	}
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
	const [zoneHours, zoneMinutes] = [zone.slice(1, 3), zone.slice(3).replace(':', '')];
	if (zone !== 'Z' && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59))
		return `the time zone offset "${zone}" does not exist`;
	return undefined;
}

const timestamp = formatted(
	'an ISO 8601 timestamp such as "2015-05-01T12:30:00.000Z"',
	'an ISO 8601 timestamp',
	timestampProblem,
	true,
);

// ISO 8601:2004 4.4.3.2: PnYnMnDTnHnMnS or PnW; only the smallest unit given may have a fraction.
const AMOUNT = '(\\d+(?:[.,]\\d+)?)';
const DURATION = new RegExp(
	`^P(?:${AMOUNT}Y)?(?:${AMOUNT}M)?(?:${AMOUNT}D)?(?:T(?:${AMOUNT}H)?(?:${AMOUNT}M)?(?:${AMOUNT}S)?)?$`,
);
// The platform's document lists "P16559.14S" as valid: seconds alone may drop the "T" ("M" could not).
const DURATION_WEEKS_OR_SECONDS = new RegExp(`^P${AMOUNT}[WS]$`);

function durationProblem(value: string): string | undefined {
	if (DURATION_WEEKS_OR_SECONDS.test(value)) return undefined;
	const parts = DURATION.exec(value);
	if (parts) {
		const given = parts.slice(1).filter((part): part is string => part !== undefined);
		if (value.endsWith('T')) return '"T" must be followed by hours, minutes or seconds';
		if (given.length === 0) return 'it gives no amount of time (write zero as "PT0S")';
		if (given.slice(0, -1).some((part) => /[.,]/.test(part))) {
			return 'only the last (smallest) unit may have a decimal fraction';
		}
		return undefined;
	}
	if (value.startsWith('-')) return 'durations cannot be negative';
	if (!value.startsWith('P')) return 'it must start with "P", like "PT1H30M"';
	if (value.includes('W')) return 'weeks cannot be combined with other units';
	if (/^P\d{4}-?\d{2}/.test(value)) {
		return 'the alternative format (like "P0001-02-03T...") is not allowed';
	}
	return 'expected a form like "PT4H35M59.14S", "P16559.14S", "P3Y1M29DT4H35M59.14S", "P3Y" or "P4W"';
}

const duration = formatted(
	'an ISO 8601 duration such as "PT1H30M"',
	'an ISO 8601 duration',
	durationProblem,
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
	const subtags = tag.toLowerCase().split('-');
	const seen = new Set<string>();
	let inExtensions = false;
	// The first subtag is the language; everything after "x" is private use and free.
	for (let index = 1; index < subtags.length && subtags[index] !== 'x'; index++) {
		const subtag = subtags[index];
		const isVariant = subtag.length >= 5 || (subtag.length === 4 && /^\d/.test(subtag));
		if (subtag.length === 1) inExtensions = true;
		else if (inExtensions || !isVariant) continue;
		if (seen.has(subtag)) return true;
		seen.add(subtag);
	}
	return false;
}

const LANGUAGE_TAG_EXAMPLES = '"en", "en-US" or "zh-Hant"';

function languageTagProblem(tag: string): string | undefined {
	if (IRREGULAR_GRANDFATHERED.test(tag) || (LANGTAG.test(tag) && !hasRepeatedSubtags(tag))) {
		return undefined;
	}
	return `${quote(tag)} is not a valid RFC 5646 language tag (like ${LANGUAGE_TAG_EXAMPLES})`;
}

const languageTag = text(`a language tag such as ${LANGUAGE_TAG_EXAMPLES}`, languageTagProblem);

type Problem = [message: string, ...path: Array<string | number>];
type Json = Record<string, unknown>;
type Rules = (value: Json) => Problem[];
type Pick = z.ZodTypeAny | Problem[];

function report(context: z.RefinementCtx, problems: readonly Problem[]): void {
	for (const [message, ...path] of problems) context.addIssue({ code: 'custom', message, path });
}

function problemsOf(issue: z.ZodIssue): Problem[] {
	if (issue.code !== 'unrecognized_keys') return [[issue.message, ...issue.path]];
	return issue.keys.map((key) => [unknownProperty(key), ...issue.path, key]);
}

function chosen(pick: (value: unknown) => Pick, rules?: Rules) {
	return z.unknown().superRefine((value, context) => {
		if (rules && isPlainObject(value)) report(context, rules(value));
		const choice = pick(value);
		if (Array.isArray(choice)) return report(context, choice);
		const result = choice.safeParse(value);
		if (!result.success) report(context, result.error.issues.flatMap(problemsOf));
	});
}

function picked(expected: string, pick: (value: Json) => Pick, rules?: Rules) {
	const refuse = (value: unknown): Problem[] => [[wrongKind(expected, value)]];
	return chosen((value) => (isPlainObject(value) ? pick(value) : refuse(value)), rules);
}

const ruled = (schema: z.ZodTypeAny, rules: Rules) => picked('an object', () => schema, rules);

/** For "did you mean" hints on mistyped names. */
const PROPERTY_NAMES = new Set<string>();

/** An object with exactly these properties (xAPI allows no others). */
function shape<S extends z.ZodRawShape>(properties: S) {
	for (const name of Object.keys(properties)) PROPERTY_NAMES.add(name);
	return z.object(properties, wrong('an object')).strict();
}

function unknownProperty(key: string): string {
	if (PROPERTY_NAMES.has(key)) return 'is not allowed here';
	const hint = caseHint(key, [...PROPERTY_NAMES]);
	if (hint)
		return `is not an xAPI property: property names are case sensitive, did you mean "${hint}"?`;
	return 'is not an xAPI property; remove it (xAPI allows no extra properties: put custom data in "extensions")';
}

const anyText = z.string(wrong('text'));
const trueOrFalse = z.boolean(wrong('true or false'));
const allowed = (values: string[]) => says((given) => notAllowed(given, values));
const literal = <T extends string>(value: T) => z.literal(value, allowed([value]));
const listOfItems = <T extends z.ZodTypeAny>(item: T) => z.array(item, wrong('a list'));

const numberWhere = (accepts: (value: number) => boolean, problem: (value: number) => string) =>
	explained(z.number(wrong('a number')), (value) => (accepts(value) ? undefined : problem(value)));

/** Infinity is refused as zod 4 does (JSON cannot carry it); NaN by both zod lines. */
const number = numberWhere(Number.isFinite, (value) => wrongKind('a number', value));

function keyedObject(expected: string, problems: (key: string, value: unknown) => unknown[]) {
	return z.record(z.string(), z.unknown(), wrong(expected)).superRefine((object, context) => {
		for (const [key, value] of Object.entries(object)) {
			for (const message of problems(key, value)) {
				if (typeof message === 'string') report(context, [[message, key]]);
			}
		}
	});
}

/** Keys are language tags, values are text (xAPI-Data 4.2). */
const languageMap = keyedObject(
	'a language map, an object such as {"en-US": "completed"}',
	(key, value) => [languageTagProblem(key), typeof value !== 'string' && wrongKind('text', value)],
);

/** Keys are IRIs; values may be any JSON value, null included (xAPI-Data 4.1). */
const extensions = keyedObject(`an object whose keys are IRIs such as ${IRI_EXAMPLE}`, (key) => {
	const reason = iriProblem(key);
	return [reason && `the extension key ${quote(key)} is not an IRI: ${reason}`];
});

const IDENTIFIERS = ['mbox', 'mbox_sha1sum', 'openid', 'account'] as const;
const identifiersUsed = (value: Json) => IDENTIFIERS.filter((key) => value[key] !== undefined);

/** Agents and identified Groups have exactly one inverse functional identifier (xAPI-Data 2.4.2). */
function oneIdentifier(kind: string, value: Json, whenNone: () => Problem[]): Problem[] {
	const used = identifiersUsed(value);
	if (used.length === 0) return whenNone();
	if (used.length === 1) return [];
	const message = `${kind} must use exactly one identifier, but uses ${used.length}`;
	return [[`${message}: ${listOf(used, 'and')}`]];
}

const accountShape = shape({ homePage: irl, name: anyText });
const identifierShape = {
	mbox: mbox.optional(),
	mbox_sha1sum: mboxSha1sum.optional(),
	openid: uri.optional(),
	account: accountShape.optional(),
};
const agentShape = shape({
	objectType: literal('Agent').optional(),
	name: anyText.optional(),
	...identifierShape,
});

const agent = ruled(agentShape, (value) =>
	oneIdentifier('an Agent', value, () => [
		[`an Agent must be identified by one of ${listOf(IDENTIFIERS)}, but has none`],
	]),
);

function byObjectType(value: Json, allowed: string[], schema: z.ZodTypeAny): Pick {
	const objectType = value.objectType;
	if (objectType === undefined || allowed.includes(objectType as string)) return schema;
	return [[notAllowed(objectType, allowed), 'objectType']];
}

/** Members are Agents; Groups cannot be nested (xAPI-Data 2.4.2.2). */
const memberAgent = picked('an Agent object', (value) => {
	if (value.objectType !== 'Group') return byObjectType(value, ['Agent'], agent);
	return [['a Group cannot be a member of another Group: members must be Agents', 'objectType']];
});

const groupShape = shape({
	objectType: literal('Group'),
	name: anyText.optional(),
	member: listOfItems(memberAgent).optional(),
	...identifierShape,
});

/** Anonymous Groups list members (xAPI-Data 2.4.2.2). */
const group = ruled(groupShape, (value) =>
	oneIdentifier('a Group', value, (): Problem[] => {
		const anonymous = `an anonymous Group (a Group without ${listOf(IDENTIFIERS)})`;
		if (value.member === undefined) return [[`is required for ${anonymous}`, 'member']];
		const empty = Array.isArray(value.member) && value.member.length === 0;
		return empty ? [['an anonymous Group must list at least one member', 'member']] : [];
	}),
);

/** For 3-legged OAuth: an anonymous Group of exactly two Agents (xAPI-Data 2.4.9). */
const authorityGroup = ruled(groupShape, ({ member, ...value }) => {
	const problems: Problem[] = [];
	const used = identifiersUsed(value);
	if (used.length > 0) {
		problems.push([`a Group as authority must be anonymous: remove ${listOf(used, 'and')}`]);
	}
	if (member === undefined)
		problems.push(['is required: list the application and the user', 'member']);
	if (Array.isArray(member) && member.length !== 2) {
		const count = `exactly two members (the application and the user), but has ${member.length}`;
		problems.push([`a Group as authority must have ${count}`, 'member']);
	}
	return problems;
});

const agentOrGroup = (groupSchema: z.ZodTypeAny) =>
	picked('an Agent or Group object', (value) =>
		byObjectType(value, ['Agent', 'Group'], value.objectType === 'Group' ? groupSchema : agent),
	);
const actor = agentOrGroup(group);

/** context.team is always a Group (xAPI-Data 2.4.6). */
const team = picked('a Group object', (value) => {
	if (value.objectType !== undefined && value.objectType !== 'Agent') {
		return byObjectType(value, ['Group'], group);
	}
	const message =
		'must be a Group: set "objectType" to "Group" and list its members or give it one identifier';
	return [[message]];
});

const INTERACTION_TYPES =
	'true-false choice fill-in long-fill-in matching performance sequencing likert numeric other'.split(
		' ',
	) as [string, ...string[]];
/** The interactionTypes each component list belongs to (xAPI-Data 2.4.4.1.s15). */
const TYPES_BY_COMPONENT_LIST: Record<string, readonly string[]> = {
	choices: ['choice', 'sequencing'],
	scale: ['likert'],
	source: ['matching'],
	target: ['matching'],
	steps: ['performance'],
};

/** Component lists fit the interactionType and their ids are distinct (xAPI-Data 2.4.4.1.s13-s16). */
function interactionRules(definition: Json): Problem[] {
	const type = definition.interactionType;
	const problems: Problem[] = [];
	if (type === undefined && definition.correctResponsesPattern !== undefined) {
		problems.push(['is only allowed together with "interactionType"', 'correctResponsesPattern']);
	}
	for (const [list, allowedWith] of Object.entries(TYPES_BY_COMPONENT_LIST)) {
		const components = definition[list];
		if (components === undefined) continue;
		if (!allowedWith.includes(type as string)) {
			const current = typeof type === 'string' ? `, not "${type}"` : ', which is missing';
			const message = `is only allowed when "interactionType" is ${listOf(allowedWith)}${current}`;
			problems.push([message, list]);
		}
		const seen = new Set<unknown>();
		(Array.isArray(components) ? components : []).forEach((component: unknown, index) => {
			const id = isPlainObject(component) ? component.id : undefined;
			if (typeof id !== 'string') return;
			const twice = `${quote(id)} is used twice in "${list}": ids must be distinct`;
			if (seen.has(id)) problems.push([twice, list, index, 'id']);
			seen.add(id);
		});
	}
	return problems;
}

const interactionComponentShape = shape({ id: anyText, description: languageMap.optional() });
const componentList = listOfItems(interactionComponentShape).optional();

const activityDefinitionShape = shape({
	name: languageMap.optional(),
	description: languageMap.optional(),
	type: iri.optional(),
	moreInfo: irl.optional(),
	interactionType: z.enum(INTERACTION_TYPES, allowed(INTERACTION_TYPES)).optional(),
	correctResponsesPattern: listOfItems(anyText).optional(),
	...Object.fromEntries(Object.keys(TYPES_BY_COMPONENT_LIST).map((list) => [list, componentList])),
	extensions: extensions.optional(),
});

const activityShape = shape({
	objectType: literal('Activity').optional(),
	id: iri,
	definition: ruled(activityDefinitionShape, interactionRules).optional(),
});

const statementRefShape = shape({ objectType: literal('StatementRef'), id: uuid });

/** A single Activity is accepted as well as a list (xAPI-Data 2.4.6.2.s4.b2). */
const activityList = listOfItems(activityShape);
const activityOrList = chosen((value) => {
	if (Array.isArray(value)) return activityList;
	if (isPlainObject(value)) return activityShape;
	return [[wrongKind('a list of Activities (or a single Activity object)', value)]];
});

const contextActivitiesShape = shape({
	parent: activityOrList.optional(),
	grouping: activityOrList.optional(),
	category: activityOrList.optional(),
	other: activityOrList.optional(),
});

const contextShape = shape({
	registration: uuid.optional(),
	instructor: actor.optional(),
	team: team.optional(),
	contextActivities: contextActivitiesShape.optional(),
	revision: anyText.optional(),
	platform: anyText.optional(),
	language: languageTag.optional(),
	statement: statementRefShape.optional(),
	extensions: extensions.optional(),
});

/** raw lies between min and max, and min does not exceed max (xAPI-Data 2.4.5.1). */
function scoreRangeRules({ raw, min, max }: Json): Problem[] {
	const problems: Problem[] = [];
	if (typeof min === 'number' && typeof max === 'number' && min > max) {
		const message = `${min} is greater than "max" (${max}): the lowest possible score cannot exceed the highest`;
		problems.push([message, 'min']);
	}
	if (typeof raw !== 'number') return problems;
	if (typeof min === 'number' && raw < min)
		problems.push([`${raw} is below "min" (${min})`, 'raw']);
	if (typeof max === 'number' && raw > max)
		problems.push([`${raw} is above "max" (${max})`, 'raw']);
	return problems;
}

const scoreShape = shape({
	scaled: numberWhere(
		(value) => value >= -1 && value <= 1,
		(value) =>
			`${value} is outside the allowed range: a scaled score is between -1 and 1 (inclusive)`,
	).optional(),
	raw: number.optional(),
	min: number.optional(),
	max: number.optional(),
});

const resultShape = shape({
	score: ruled(scoreShape, scoreRangeRules).optional(),
	success: trueOrFalse.optional(),
	completion: trueOrFalse.optional(),
	response: anyText.optional(),
	duration: duration.optional(),
	extensions: extensions.optional(),
});

const attachmentShape = shape({
	usageType: iri,
	display: languageMap,
	description: languageMap.optional(),
	contentType: mediaType,
	length: numberWhere(
		(value) => Number.isInteger(value) && value >= 0,
		(value) =>
			`${value} is not a valid length: give the size in bytes as a whole number (0 or more)`,
	),
	sha2: sha2,
	fileUrl: irl.optional(),
});

const SIGNATURE = 'http://adlnet.gov/expapi/attachments/signature';
const SIGNATURE_TYPE = 'application/octet-stream';

/** Signatures are JSON web signatures sent as application/octet-stream (xAPI-Data 2.6). */
const attachment = ruled(attachmentShape, ({ usageType, contentType }): Problem[] => {
	if (usageType !== SIGNATURE || typeof contentType !== 'string' || contentType === SIGNATURE_TYPE)
		return [];
	const message = `${quote(contentType)} is not allowed for a signature: signature attachments use "${SIGNATURE_TYPE}"`;
	return [[message, 'contentType']];
});

const verbShape = shape({ id: iri, display: languageMap.optional() });

const OBJECT_TYPES = ['Activity', 'Agent', 'Group', 'StatementRef', 'SubStatement'];
const AGENT_OR_GROUP_KEYS = [...IDENTIFIERS, 'member'];

/** Picks the object's kind from "objectType" (Activity when absent, xAPI-Data 2.4.4). */
function statementObject(subStatement?: z.ZodTypeAny) {
	const byType = new Map<unknown, z.ZodTypeAny | undefined>([
		['Activity', activityShape],
		['Agent', actor],
		['Group', actor],
		['StatementRef', statementRefShape],
		['SubStatement', subStatement],
	]);
	return picked('an Activity, Agent, Group, StatementRef or SubStatement object', (value) => {
		const objectType = value.objectType;
		if (objectType === undefined && AGENT_OR_GROUP_KEYS.every((key) => value[key] === undefined)) {
			return activityShape;
		}
		const message =
			objectType === undefined
				? 'is required when the object is an Agent or a Group: set it to "Agent" or "Group"'
				: objectType === 'SubStatement'
					? 'a SubStatement cannot contain another SubStatement'
					: notAllowed(objectType, OBJECT_TYPES);
		return byType.get(objectType) ?? [[message, 'objectType']];
	});
}

/** "revision" and "platform" only describe Activities (xAPI-Data 2.4.6.s4). */
function contextFitsObject({ context, object }: Json): Problem[] {
	if (!isPlainObject(context) || !isPlainObject(object)) return [];
	const objectType = object.objectType;
	if (objectType === 'Activity' || !OBJECT_TYPES.includes(objectType as string)) return [];
	const article = objectType === 'Agent' ? 'an' : 'a';
	const message = `is only allowed when the object is an Activity, but the object is ${article} ${objectType}`;
	return ['revision', 'platform']
		.filter((key) => context[key] !== undefined)
		.map((key) => [message, 'context', key]);
}

export const VOIDED_VERB = 'http://adlnet.gov/expapi/verbs/voided';

/** A voiding statement points at the voided statement with a StatementRef (xAPI-Data 2.3.2). */
function voidingRules({ verb, object }: Json): Problem[] {
	if (!isPlainObject(verb) || verb.id !== VOIDED_VERB) return [];
	if (!isPlainObject(object) || object.objectType === 'StatementRef') return [];
	const message =
		'must be "StatementRef" because the verb is "voided": a voiding statement refers to the statement it voids by id';
	return [[message, 'object', 'objectType']];
}

const coreShape = {
	actor,
	verb: verbShape,
	result: resultShape.optional(),
	context: contextShape.optional(),
	timestamp: timestamp.optional(),
	attachments: listOfItems(attachment).optional(),
};

function notInSubStatement(key: string) {
	const reason = `a SubStatement must not have "${key}"; only the statement that contains it may`;
	return z.never(says(() => reason)).optional();
}

const subStatementShape = shape({
	objectType: literal('SubStatement'),
	...coreShape,
	object: statementObject(),
	id: notInSubStatement('id'),
	stored: notInSubStatement('stored'),
	version: notInSubStatement('version'),
	authority: notInSubStatement('authority'),
});

const statementShape = shape({
	id: uuid.optional(),
	...coreShape,
	object: statementObject(ruled(subStatementShape, contextFitsObject)),
	stored: timestamp.optional(),
	authority: agentOrGroup(authorityGroup).optional(),
	version: statementVersion.optional(),
});
/** Checked by `statementSchema`; the node reads only a few properties, each where it needs them. */
export type Statement = { id?: string; [property: string]: unknown };

/** A whole statement as POSTed to a record store (xAPI-Data 2.4, Communication 2.1.2). */
const statementSchema = chosen(
	(value) => {
		if (Array.isArray(value)) return [['must be one statement object, not a list']];
		return isPlainObject(value) ? statementShape : [[wrongKind('a statement object', value)]];
	},
	(statement) => [...contextFitsObject(statement), ...voidingRules(statement)],
);

export type ValidationIssue = { path: string; message: string };

const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["context", "contextActivities", "parent", 0, "id"]` → `context.contextActivities.parent[0].id`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
	let text = '';
	for (const segment of path) {
		if (typeof segment === 'number') text += `[${segment}]`;
		else if (PLAIN_NAME.test(String(segment)))
			text += text === '' ? String(segment) : `.${String(segment)}`;
		else text += `[${JSON.stringify(String(segment))}]`;
	}
	return text === '' ? 'statement' : text;
}

export function validateStatement(statement: unknown) {
	const result = statementSchema.safeParse(statement);
	if (result.success) return { ok: true as const, statement: statement as Statement };
	const issues = result.error.issues.map(({ path, message }) => ({
		path: formatPath(path),
		message,
	}));
	return { ok: false as const, issues };
}

/** One readable line, e.g. `result.duration: "P4W1D" is not an ISO 8601 duration (…); actor: …`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
	const shown = issues.slice(0, 10).map((issue) => `${issue.path}: ${issue.message}`);
	const hidden = issues.length - shown.length;
	if (hidden > 0) shown.push(`and ${hidden} more problem${hidden === 1 ? '' : 's'}`);
	return shown.join('; ');
}
