// xAPI 1.0.3 statements (xAPI-Data 2.2 to 2.4): every rule a store enforces, every problem at once.
import { z } from 'zod';

import { isPlainObject } from '../../shared/form/input';
import * as format from './formats';
import { caseHint, listOf, notAllowed, quote, says, wrong, wrongKind } from './problems';

type Problem = [message: string, ...path: Array<string | number>];
type Json = Record<string, unknown>;
/** `false` stands for a rule that holds. */
type Rules = (value: Json) => Array<Problem | false>;
type Pick = z.ZodTypeAny | Problem[];

function report(context: z.RefinementCtx, problems: ReadonlyArray<Problem | false>): void {
	for (const [message, ...path] of problems.filter((problem) => problem !== false))
		context.addIssue({ code: 'custom', message, path });
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

/** Every property name, for "did you mean" hints on mistyped names. */
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

const IDENTIFIERS = ['mbox', 'mbox_sha1sum', 'openid', 'account'] as const;
const identifiersUsed = (value: Json) => IDENTIFIERS.filter((key) => value[key] !== undefined);
/** Agents and identified Groups have exactly one inverse functional identifier (xAPI-Data 2.4.2). */
function oneIdentifier(kind: string, value: Json, whenNone: () => Problem[]): Problem[] {
	const used = identifiersUsed(value);
	if (used.length < 2) return used.length === 0 ? whenNone() : [];
	const message = `${kind} must use exactly one identifier, but uses ${used.length}`;
	return [[`${message}: ${listOf(used, 'and')}`]];
}

const identifierShape = {
	mbox: format.mbox.optional(),
	mbox_sha1sum: format.mboxSha1sum.optional(),
	openid: format.uri.optional(),
	account: shape({ homePage: format.irl, name: anyText }).optional(),
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
	if (value.objectType === undefined || allowed.includes(value.objectType as string)) return schema;
	return [[notAllowed(value.objectType, allowed), 'objectType']];
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
	const used = identifiersUsed(value);
	const size = Array.isArray(member) ? member.length : 2;
	const count = `exactly two members (the application and the user), but has ${size}`;
	return [
		used.length > 0 && [`a Group as authority must be anonymous: remove ${listOf(used, 'and')}`],
		member === undefined && ['is required: list the application and the user', 'member'],
		size !== 2 && [`a Group as authority must have ${count}`, 'member'],
	];
});

const agentOrGroup = (groupSchema: z.ZodTypeAny) =>
	picked('an Agent or Group object', (value) =>
		byObjectType(value, ['Agent', 'Group'], value.objectType === 'Group' ? groupSchema : agent),
	);
const actor = agentOrGroup(group);

/** context.team is always a Group (xAPI-Data 2.4.6). */
const team = picked('a Group object', (value) => {
	if (value.objectType !== undefined && value.objectType !== 'Agent')
		return byObjectType(value, ['Group'], group);
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
	if (type === undefined && definition.correctResponsesPattern !== undefined)
		problems.push(['is only allowed together with "interactionType"', 'correctResponsesPattern']);
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

const component = shape({ id: anyText, description: format.languageMap.optional() });
const componentList = listOfItems(component).optional();
const activityDefinitionShape = shape({
	name: format.languageMap.optional(),
	description: format.languageMap.optional(),
	type: format.iri.optional(),
	moreInfo: format.irl.optional(),
	interactionType: z.enum(INTERACTION_TYPES, allowed(INTERACTION_TYPES)).optional(),
	correctResponsesPattern: listOfItems(anyText).optional(),
	...Object.fromEntries(Object.keys(TYPES_BY_COMPONENT_LIST).map((list) => [list, componentList])),
	extensions: format.extensions.optional(),
});

const activityShape = shape({
	objectType: literal('Activity').optional(),
	id: format.iri,
	definition: ruled(activityDefinitionShape, interactionRules).optional(),
});

const statementRefShape = shape({ objectType: literal('StatementRef'), id: format.uuid });

/** A single Activity is accepted as well as a list (xAPI-Data 2.4.6.2.s4.b2). */
const activityList = listOfItems(activityShape);
const activityOrList = chosen((value) => {
	if (Array.isArray(value)) return activityList;
	if (isPlainObject(value)) return activityShape;
	return [[wrongKind('a list of Activities (or a single Activity object)', value)]];
});

const contextShape = shape({
	registration: format.uuid.optional(),
	instructor: actor.optional(),
	team: team.optional(),
	contextActivities: shape({
		parent: activityOrList.optional(),
		grouping: activityOrList.optional(),
		category: activityOrList.optional(),
		other: activityOrList.optional(),
	}).optional(),
	revision: anyText.optional(),
	platform: anyText.optional(),
	language: format.languageTag.optional(),
	statement: statementRefShape.optional(),
	extensions: format.extensions.optional(),
});

/** raw lies between min and max, and min does not exceed max (xAPI-Data 2.4.5.1). */
function scoreRangeRules(score: Json): Array<Problem | false> {
	// A bound that is not a number (reported already) compares false with anything.
	const [raw, min, max] = [score.raw, score.min, score.max].map((n) =>
		typeof n === 'number' ? n : NaN,
	);
	const inverted = `${min} is greater than "max" (${max}): the lowest possible score cannot exceed the highest`;
	return [
		min > max && [inverted, 'min'],
		raw < min && [`${raw} is below "min" (${min})`, 'raw'],
		raw > max && [`${raw} is above "max" (${max})`, 'raw'],
	];
}

const scoreShape = shape({
	scaled: format
		.numberWhere(
			(n) => n >= -1 && n <= 1,
			(n) => `${n} is outside the allowed range: a scaled score is between -1 and 1 (inclusive)`,
		)
		.optional(),
	raw: format.number.optional(),
	min: format.number.optional(),
	max: format.number.optional(),
});

const resultShape = shape({
	score: ruled(scoreShape, scoreRangeRules).optional(),
	success: trueOrFalse.optional(),
	completion: trueOrFalse.optional(),
	response: anyText.optional(),
	duration: format.duration.optional(),
	extensions: format.extensions.optional(),
});

const attachmentShape = shape({
	usageType: format.iri,
	display: format.languageMap,
	description: format.languageMap.optional(),
	contentType: format.mediaType,
	length: format.numberWhere(
		(n) => Number.isInteger(n) && n >= 0,
		(n) => `${n} is not a valid length: give the size in bytes as a whole number (0 or more)`,
	),
	sha2: format.sha2,
	fileUrl: format.irl.optional(),
});

const SIGNATURE = 'http://adlnet.gov/expapi/attachments/signature';
const SIGNATURE_TYPE = 'application/octet-stream';
/** Signatures are JSON web signatures sent as application/octet-stream (xAPI-Data 2.6). */
const attachment = ruled(attachmentShape, ({ usageType, contentType }) => {
	const signature = usageType === SIGNATURE && typeof contentType === 'string';
	const message = `${quote(String(contentType))} is not allowed for a signature: signature attachments use "${SIGNATURE_TYPE}"`;
	return [signature && contentType !== SIGNATURE_TYPE && [message, 'contentType']];
});

const OBJECT_TYPES = ['Activity', 'Agent', 'Group', 'StatementRef', 'SubStatement'];
const AGENT_OR_GROUP_KEYS = [...IDENTIFIERS, 'member'];
/** Picks the object's kind from "objectType" (Activity when absent, xAPI-Data 2.4.4). */
function statementObject(subStatement?: z.ZodTypeAny) {
	// In the order of OBJECT_TYPES.
	const schemas = [activityShape, actor, actor, statementRefShape, subStatement];
	return picked('an Activity, Agent, Group, StatementRef or SubStatement object', (value) => {
		const objectType = value.objectType;
		if (objectType === undefined && AGENT_OR_GROUP_KEYS.every((key) => value[key] === undefined))
			return activityShape;
		const message =
			objectType === undefined
				? 'is required when the object is an Agent or a Group: set it to "Agent" or "Group"'
				: objectType === 'SubStatement'
					? 'a SubStatement cannot contain another SubStatement'
					: notAllowed(objectType, OBJECT_TYPES);
		return schemas[OBJECT_TYPES.indexOf(objectType as string)] ?? [[message, 'objectType']];
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
function voidingRules({ verb, object }: Json): Array<Problem | false> {
	const voiding = isPlainObject(verb) && verb.id === VOIDED_VERB && isPlainObject(object);
	const message =
		'must be "StatementRef" because the verb is "voided": a voiding statement refers to the statement it voids by id';
	return [voiding && object.objectType !== 'StatementRef' && [message, 'object', 'objectType']];
}

const coreShape = {
	actor,
	verb: shape({ id: format.iri, display: format.languageMap.optional() }),
	result: resultShape.optional(),
	context: contextShape.optional(),
	timestamp: format.timestamp.optional(),
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
	id: format.uuid.optional(),
	...coreShape,
	object: statementObject(ruled(subStatementShape, contextFitsObject)),
	stored: format.timestamp.optional(),
	authority: agentOrGroup(authorityGroup).optional(),
	version: format.statementVersion.optional(),
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

/** `["context", "contextActivities", "parent", 0, "id"]` → `context.contextActivities.parent[0].id`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
	const steps = path.map((step) => {
		if (typeof step === 'number') return `[${step}]`;
		return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(String(step))
			? `.${String(step)}`
			: `[${JSON.stringify(String(step))}]`;
	});
	return steps.join('').replace(/^\./, '') || 'statement';
}

export function validateStatement(statement: unknown) {
	const result = statementSchema.safeParse(statement);
	if (result.success) return { ok: true as const, statement: statement as Statement };
	const issues = result.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
	return { ok: false as const, issues };
}

/** One readable line, e.g. `result.duration: "P4W1D" is not an ISO 8601 duration (…); actor: …`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
	const shown = issues.slice(0, 10).map((issue) => `${issue.path}: ${issue.message}`);
	const hidden = issues.length - shown.length;
	if (hidden > 0) shown.push(`and ${hidden} more problem${hidden === 1 ? '' : 's'}`);
	return shown.join('; ');
}
