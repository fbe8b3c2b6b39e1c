import type { IDataObject } from 'n8n-workflow';

import { textOf } from '../XApi/helpers/output';

/**
 * What a builder usually wants of a completion: who, what, which course, the result and when,
 * as flat fields. The statement itself stays under `statement`, so nothing is lost.
 */
export function simplifiedStatement(statement: IDataObject): IDataObject {
	const actor = (statement.actor ?? {}) as IDataObject;
	const verb = (statement.verb ?? {}) as IDataObject;
	const object = (statement.object ?? {}) as IDataObject;
	const definition = (object.definition ?? {}) as IDataObject;
	const result = (statement.result ?? {}) as IDataObject;
	const score = (result.score ?? {}) as IDataObject;
	const mbox = typeof actor.mbox === 'string' ? actor.mbox : undefined;
	return {
		statementId: statement.id,
		email: mbox?.replace(/^mailto:/i, ''),
		name: actor.name,
		verb:
			textOf(verb.display) ?? (typeof verb.id === 'string' ? verb.id.split('/').pop() : undefined),
		verbId: verb.id,
		course: textOf(definition.name),
		activityId: object.id,
		scoreScaled: score.scaled,
		success: result.success,
		completion: result.completion,
		duration: result.duration,
		timestamp: statement.timestamp,
		stored: statement.stored,
		statement,
	};
}
