/** The context of a statement (xAPI-Data 2.4.6) and Statement References (2.4.4.3). */
import { activity } from './activitySchema';
import { agentOrGroup, team } from './actorSchemas';
import { isPlainObject, wrongKind } from './describe';
import { extensions, languageTag, uuid } from './primitives';
import { arrayOf, chosen, literal, problem, text } from './schema';
import { strictObject } from './strictObject';

export const statementRefShape = strictObject({ objectType: literal('StatementRef'), id: uuid });

const activityList = arrayOf(activity);

/** A single Activity is accepted as well as a list (xAPI-Data 2.4.6.2.s4.b2). */
const activityOrList = chosen((value) => {
	if (Array.isArray(value)) return activityList;
	if (isPlainObject(value)) return activity;
	return problem(wrongKind('a list of Activities (or a single Activity object)', value));
});

export const contextActivitiesShape = strictObject({
	parent: activityOrList.optional(),
	grouping: activityOrList.optional(),
	category: activityOrList.optional(),
	other: activityOrList.optional(),
});

export const contextShape = strictObject({
	registration: uuid.optional(),
	instructor: agentOrGroup.optional(),
	team: team.optional(),
	contextActivities: contextActivitiesShape.optional(),
	revision: text.optional(),
	platform: text.optional(),
	language: languageTag.optional(),
	statement: statementRefShape.optional(),
	extensions: extensions.optional(),
});
