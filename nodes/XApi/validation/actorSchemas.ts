/** Agents, Groups and accounts (xAPI-Data 2.4.2) in each role they play in a statement. */
import { caseHint, isPlainObject, listOf, quote, wrongKind } from './describe';
import { irl, mbox, mboxSha1sum, uri } from './primitives';
import {
	addTo,
	arrayOf,
	chosen,
	literal,
	problem,
	text,
	withRules,
	type Problem,
	type Problems,
} from './schema';
import { strictObject } from './strictObject';

const IDENTIFIER_KEYS = ['mbox', 'mbox_sha1sum', 'openid', 'account'] as const;
const IDENTIFIER_LIST = listOf(IDENTIFIER_KEYS);

export const accountShape = strictObject({ homePage: irl, name: text });

const identifierShape = {
	mbox: mbox.optional(),
	mbox_sha1sum: mboxSha1sum.optional(),
	openid: uri.optional(),
	account: accountShape.optional(),
};

export const agentShape = strictObject({
	objectType: literal('Agent').optional(),
	name: text.optional(),
	...identifierShape,
});

function identifiersUsed(value: Record<string, unknown>): string[] {
	return IDENTIFIER_KEYS.filter((key) => value[key] !== undefined);
}

function tooManyIdentifiers(kind: string, used: string[]): string {
	return `${kind} must use exactly one identifier, but uses ${used.length}: ${listOf(used, 'and')}`;
}

/** An Agent has exactly one inverse functional identifier (xAPI-Data 2.4.2.1). */
const agent = withRules(agentShape, (value) => {
	if (!isPlainObject(value)) return undefined;
	const used = identifiersUsed(value);
	if (used.length === 0)
		return problem(`an Agent must be identified by one of ${IDENTIFIER_LIST}, but has none`);
	if (used.length > 1) return problem(tooManyIdentifiers('an Agent', used));
	return undefined;
});

/** Problems with "objectType" when it is present and not one of `allowed`. */
function objectTypeProblems(
	value: Record<string, unknown>,
	allowed: readonly string[],
): Problem[] | undefined {
	const objectType = value.objectType;
	if (objectType === undefined || allowed.includes(objectType as string)) return undefined;
	const path = ['objectType'];
	if (typeof objectType !== 'string')
		return problem(wrongKind(`text (${listOf(allowed)})`, objectType), path);
	const hint = caseHint(objectType, allowed);
	return problem(
		hint
			? `${quote(objectType)} is not allowed: values are case sensitive, write "${hint}"`
			: `must be ${listOf(allowed)}, but is ${quote(objectType)}`,
		path,
	);
}

/** Members are Agents; Groups cannot be nested (xAPI-Data 2.4.2.2). */
const memberAgent = chosen((value) => {
	if (!isPlainObject(value)) return problem(wrongKind('an Agent object', value));
	if (value.objectType === 'Group') {
		return problem('a Group cannot be a member of another Group: members must be Agents', [
			'objectType',
		]);
	}
	return objectTypeProblems(value, ['Agent']) ?? agent;
});

export const groupShape = strictObject({
	objectType: literal('Group'),
	name: text.optional(),
	member: arrayOf(memberAgent).optional(),
	...identifierShape,
});

/** Anonymous Groups list members; identified Groups have exactly one identifier (xAPI-Data 2.4.2.2). */
function groupRules(value: unknown): Problems {
	if (!isPlainObject(value)) return undefined;
	const used = identifiersUsed(value);
	if (used.length > 1) return problem(tooManyIdentifiers('a Group', used));
	if (used.length === 1) return undefined;
	if (value.member === undefined) {
		return problem(`is required for an anonymous Group (a Group without ${IDENTIFIER_LIST})`, [
			'member',
		]);
	}
	if (Array.isArray(value.member) && value.member.length === 0) {
		return problem('an anonymous Group must list at least one member', ['member']);
	}
	return undefined;
}

const group = withRules(groupShape, groupRules);

/** An Agent, or a Group when "objectType" is "Group": actors, instructors, Agents as objects. */
export const agentOrGroup = chosen((value) => {
	if (!isPlainObject(value)) return problem(wrongKind('an Agent or Group object', value));
	return (
		objectTypeProblems(value, ['Agent', 'Group']) ?? (value.objectType === 'Group' ? group : agent)
	);
});

/** context.team is always a Group (xAPI-Data 2.4.6). */
export const team = chosen((value) => {
	if (!isPlainObject(value)) return problem(wrongKind('a Group object', value));
	if (value.objectType === undefined || value.objectType === 'Agent') {
		return problem(
			'must be a Group: set "objectType" to "Group" and list its members or give it one identifier',
		);
	}
	return objectTypeProblems(value, ['Group']) ?? group;
});

/** For 3-legged OAuth: an anonymous Group of exactly two Agents (xAPI-Data 2.4.9). */
const authorityGroup = withRules(groupShape, (value) => {
	if (!isPlainObject(value)) return undefined;
	let problems: Problems;
	const used = identifiersUsed(value);
	if (used.length > 0)
		problems = addTo(
			problems,
			`a Group as authority must be anonymous: remove ${listOf(used, 'and')}`,
		);
	const member = value.member;
	if (member === undefined)
		problems = addTo(problems, 'is required: list the application and the user', ['member']);
	if (Array.isArray(member) && member.length !== 2) {
		const count = `exactly two members (the application and the user), but has ${member.length}`;
		problems = addTo(problems, `a Group as authority must have ${count}`, ['member']);
	}
	return problems;
});

export const authority = chosen((value) => {
	if (!isPlainObject(value)) return problem(wrongKind('an Agent or Group object', value));
	return (
		objectTypeProblems(value, ['Agent', 'Group']) ??
		(value.objectType === 'Group' ? authorityGroup : agent)
	);
});
