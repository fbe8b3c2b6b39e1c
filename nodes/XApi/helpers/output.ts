import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { OutputChoice, OutputForm } from '../../shared/form/output';
import {
	definedOnly,
	outputChoiceSchema,
	outputProperties,
	readOutputChoice,
	shapeRecord,
} from '../../shared/form/output';

/** A language map's text: en-US, else English of any region, else the first. */
function textOf(map: unknown): string | undefined {
	if (!map || typeof map !== 'object') return undefined;
	const entries = Object.entries(map as Record<string, unknown>).filter(
		([, value]) => typeof value === 'string',
	) as Array<[string, string]>;
	const english =
		entries.find(([tag]) => tag === 'en-US') ?? entries.find(([tag]) => /^en\b/i.test(tag));
	return (english ?? entries[0])?.[1];
}

const statementOutputForm: OutputForm = {
	records: 'statements',
	/** At most 10, as n8n's guidelines for tools ask. */
	simplifiedFields: [
		'statementId',
		'actorName',
		'actorEmail',
		'verb',
		'verbId',
		'activityId',
		'activityName',
		'result',
		'timestamp',
	],
	selectableFields: [
		'id',
		'actor',
		'verb',
		'object',
		'result',
		'context',
		'timestamp',
		'stored',
		'authority',
		'version',
		'attachments',
	],
};

const outputSchema = outputChoiceSchema(statementOutputForm);

/** Get's and Get Many's choice of output: its form, reading it, and shaping a statement by it. */
export const statementOutput = {
	properties: outputProperties(statementOutputForm),
	read: (fns: IExecuteFunctions, itemIndex: number, form: INodeProperties[]) =>
		readOutputChoice(fns, itemIndex, outputSchema, form),
	shape: (statement: IDataObject, choice: OutputChoice) =>
		shapeRecord(statement, choice, simplifiedStatement),
};

function simplifiedStatement(statement: IDataObject): IDataObject {
	const actor = (statement.actor ?? {}) as IDataObject;
	const verb = (statement.verb ?? {}) as IDataObject;
	const object = (statement.object ?? {}) as IDataObject;
	const definition = (object.definition ?? {}) as IDataObject;
	const result = statement.result as IDataObject | undefined;
	const score = (result?.score ?? {}) as IDataObject;
	const mbox = typeof actor.mbox === 'string' ? actor.mbox.replace(/^mailto:/i, '') : undefined;
	const verbId = typeof verb.id === 'string' ? verb.id : undefined;
	const outcome = definedOnly({
		scoreScaled: score.scaled,
		success: result?.success,
		completion: result?.completion,
		duration: result?.duration,
	});
	return definedOnly({
		statementId: statement.id,
		actorName: typeof actor.name === 'string' ? actor.name : undefined,
		actorEmail: mbox,
		verb: textOf(verb.display) ?? verbId?.split('/').pop(),
		verbId,
		activityId: object.id,
		activityName: textOf(definition.name),
		result: Object.keys(outcome).length > 0 ? outcome : undefined,
		timestamp: statement.timestamp,
	});
}

/** In the names the trigger's saved workflows read; the statement itself is kept, so nothing is lost. */
export function triggerSimplifiedStatement(statement: IDataObject): IDataObject {
	const simple = simplifiedStatement(statement);
	const { statementId, verb, verbId, activityId, timestamp } = simple;
	return {
		statementId,
		email: simple.actorEmail,
		name: simple.actorName,
		verb,
		verbId,
		course: simple.activityName,
		activityId,
		// The result's scoreScaled, success, completion and duration, those it has.
		...(simple.result as IDataObject | undefined),
		timestamp,
		stored: statement.stored,
		statement,
	};
}
