/** Statements and SubStatements (xAPI-Data 2.4), with the rules that span several properties. */
import {
	activity,
	activityDefinitionShape,
	activityShape,
	interactionComponentShape,
} from './activitySchema';
import { accountShape, agentOrGroup, agentShape, authority, groupShape } from './actorSchemas';
import { attachment, attachmentShape } from './attachmentSchema';
import { contextActivitiesShape, contextShape, statementRefShape } from './contextSchema';
import { caseHint, isPlainObject, listOf, quote, wrongKind } from './describe';
import { forbidden, iri, languageMap, statementVersion, timestamp, uuid } from './primitives';
import { resultShape, scoreShape } from './resultSchema';
import {
	addTo,
	arrayOf,
	chosen,
	literal,
	problem,
	withRules,
	type Problems,
	type Schema,
} from './schema';
import { strictObject } from './strictObject';

const VOIDED_VERB = 'http://adlnet.gov/expapi/verbs/voided';
const OBJECT_TYPES = ['Activity', 'Agent', 'Group', 'StatementRef', 'SubStatement'] as const;
const AGENT_OR_GROUP_KEYS = ['mbox', 'mbox_sha1sum', 'openid', 'account', 'member'];

export const verbShape = strictObject({ id: iri, display: languageMap.optional() });

/** Picks the object's kind from "objectType" (Activity when absent, xAPI-Data 2.4.4). */
function statementObject(subStatement?: Schema): Schema {
	return chosen((value) => {
		if (!isPlainObject(value)) {
			return problem(
				wrongKind('an Activity, Agent, Group, StatementRef or SubStatement object', value),
			);
		}
		const objectType = value.objectType;
		switch (objectType) {
			case undefined:
				if (AGENT_OR_GROUP_KEYS.some((key) => value[key] !== undefined)) {
					const message =
						'is required when the object is an Agent or a Group: set it to "Agent" or "Group"';
					return problem(message, ['objectType']);
				}
				return activity;
			case 'Activity':
				return activity;
			case 'Agent':
			case 'Group':
				return agentOrGroup;
			case 'StatementRef':
				return statementRefShape;
			case 'SubStatement':
				return (
					subStatement ??
					problem('a SubStatement cannot contain another SubStatement', ['objectType'])
				);
		}
		if (typeof objectType !== 'string') {
			return problem(wrongKind(`text (${listOf(OBJECT_TYPES)})`, objectType), ['objectType']);
		}
		const hint = caseHint(objectType, OBJECT_TYPES);
		const message = hint
			? `${quote(objectType)} is not allowed: values are case sensitive, write "${hint}"`
			: `must be ${listOf(OBJECT_TYPES)}, but is ${quote(objectType)}`;
		return problem(message, ['objectType']);
	});
}

/** "revision" and "platform" only describe Activities (xAPI-Data 2.4.6.s4). */
function contextFitsObject(statement: unknown): Problems {
	if (!isPlainObject(statement)) return undefined;
	const { context, object } = statement;
	if (!isPlainObject(context) || !isPlainObject(object)) return undefined;
	const objectType = object.objectType;
	if (objectType === undefined || objectType === 'Activity') return undefined;
	if (!OBJECT_TYPES.includes(objectType as (typeof OBJECT_TYPES)[number])) return undefined;
	let problems: Problems;
	const article = objectType === 'Agent' ? 'an' : 'a';
	for (const key of ['revision', 'platform']) {
		if (context[key] !== undefined) {
			const message = `is only allowed when the object is an Activity, but the object is ${article} ${objectType}`;
			problems = addTo(problems, message, ['context', key]);
		}
	}
	return problems;
}

/** A voiding statement points at the voided statement with a StatementRef (xAPI-Data 2.3.2). */
function voidingRules(statement: unknown): Problems {
	if (!isPlainObject(statement)) return undefined;
	const { verb, object } = statement;
	if (!isPlainObject(verb) || verb.id !== VOIDED_VERB || !isPlainObject(object)) return undefined;
	if (object.objectType === 'StatementRef') return undefined;
	return problem(
		'must be "StatementRef" because the verb is "voided": a voiding statement refers to the statement it voids by id',
		['object', 'objectType'],
	);
}

const coreShape = {
	actor: agentOrGroup,
	verb: verbShape,
	result: resultShape.optional(),
	context: contextShape.optional(),
	timestamp: timestamp.optional(),
	attachments: arrayOf(attachment).optional(),
};

function notInSubStatement(key: string) {
	return forbidden(
		`a SubStatement must not have "${key}"; only the statement that contains it may`,
	);
}

export const subStatementShape = strictObject({
	objectType: literal('SubStatement'),
	...coreShape,
	object: statementObject(),
	id: notInSubStatement('id'),
	stored: notInSubStatement('stored'),
	version: notInSubStatement('version'),
	authority: notInSubStatement('authority'),
});

const subStatement = withRules(subStatementShape, contextFitsObject);

export const statementShape = strictObject({
	id: uuid.optional(),
	...coreShape,
	object: statementObject(subStatement),
	stored: timestamp.optional(),
	authority: authority.optional(),
	version: statementVersion.optional(),
});

function statementRules(statement: unknown): Problems {
	const problems = contextFitsObject(statement);
	const voiding = voidingRules(statement);
	return problems && voiding ? problems.concat(voiding) : (problems ?? voiding);
}

const statementWithRules = withRules(statementShape, statementRules);

/** A whole statement as POSTed to a record store (xAPI-Data 2.4, Communication 2.1.2). */
export const statementSchema = chosen((value) => {
	if (Array.isArray(value)) return problem('must be one statement object, not a list');
	if (!isPlainObject(value)) return problem(wrongKind('a statement object', value));
	return statementWithRules;
});

/** Every property name the specification defines, for "did you mean" hints on mistyped names. */
export const PROPERTY_NAMES: readonly string[] = Array.from(
	new Set(
		[
			statementShape,
			subStatementShape,
			verbShape,
			agentShape,
			groupShape,
			accountShape,
			activityShape,
			activityDefinitionShape,
			interactionComponentShape,
			statementRefShape,
			resultShape,
			scoreShape,
			contextShape,
			contextActivitiesShape,
			attachmentShape,
		].flatMap((shape) => Object.keys(shape.shape)),
	),
);
