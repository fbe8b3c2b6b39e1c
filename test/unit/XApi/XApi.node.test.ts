import type { INodeProperties } from 'n8n-workflow';

import { XApi } from '../../../nodes/XApi/XApi.node';
import { XApiTrigger } from '../../../nodes/XApiTrigger/XApiTrigger.node';

const node = new XApi().description;
const trigger = new XApiTrigger().description;

const forOperation = (operation: string) =>
	node.properties.filter((p) => p.displayOptions?.show?.operation?.includes(operation));
const named = (properties: INodeProperties[], name: string) =>
	properties.find((p) => p.name === name);
const optionValues = (property?: INodeProperties) =>
	(property?.options ?? []).map((o) => (o as { value: string }).value);
const optionNames = (property?: INodeProperties) =>
	(property?.options ?? []).map((o) => (o as { name: string }).name);

// The interface the package publishes (saved workflows depend on these names and values).
const VERB_IRIS = [
	'http://activitystrea.ms/schema/1.0/create',
	'http://activitystrea.ms/schema/1.0/assign',
	'http://activitystrea.ms/schema/1.0/start',
	'http://adlnet.gov/expapi/verbs/progressed',
	'http://activitystrea.ms/schema/1.0/consume',
	'http://adlnet.gov/expapi/verbs/completed',
	'http://activitystrea.ms/schema/1.0/complete',
	'http://adlnet.gov/expapi/verbs/passed',
	'http://adlnet.gov/expapi/verbs/failed',
	'http://id.tincanapi.com/verb/voted-up',
	'http://adlnet.gov/expapi/verbs/commented',
	'http://id.tincanapi.com/verb/viewed',
	'http://id.tincanapi.com/verb/bookmarked',
];
const ACTIVITY_TYPE_IRIS = [
	'http://activitystrea.ms/schema/1.0/video',
	'http://activitystrea.ms/schema/1.0/question',
	'http://activitystrea.ms/schema/1.0/article',
	'http://adlnet.gov/expapi/activities/course',
	'http://adlnet.gov/expapi/activities/objective',
	'http://activitystrea.ms/schema/1.0/image',
	'http://activitystrea.ms/schema/1.0/collection',
	'http://activitystrea.ms/schema/1.0/bookmark',
	'http://activitystrea.ms/schema/1.0/comment',
	'http://activitystrea.ms/schema/1.0/badge',
	'http://adlnet.gov/expapi/activities/lesson',
];

test('the node keeps its public names', () => {
	expect(node.name).toBe('xApi');
	expect(node.usableAsTool).toBe(true);
	expect(node.credentials).toEqual([{ name: 'xApiLrsApi', required: true }]);
	expect(optionValues(named(node.properties, 'resource'))).toEqual(['statement']);
	expect(optionValues(named(node.properties, 'operation')).sort()).toEqual([
		'get',
		'getMany',
		'send',
		'void',
	]);
});

test('send has every documented parameter, and the verb and activity type options are the documented IRIs', () => {
	const send = forOperation('send');
	for (const name of [
		'inputMode',
		'statement',
		'actorName',
		'actorEmail',
		'verb',
		'customVerbId',
		'activityId',
		'activityType',
		'customActivityType',
		'activityName',
		'additionalFields',
		'options',
	]) {
		expect(named(send, name)).toBeDefined();
	}
	expect(optionValues(named(send, 'inputMode'))).toEqual(['fields', 'json']);
	expect(optionValues(named(send, 'verb')).sort()).toEqual([...VERB_IRIS, 'custom'].sort());
	expect(optionValues(named(send, 'activityType')).sort()).toEqual(
		[...ACTIVITY_TYPE_IRIS, 'custom'].sort(),
	);
	const additional = (named(send, 'additionalFields')?.options ?? []).map(
		(o) => (o as INodeProperties).name,
	);
	expect(additional.sort()).toEqual(
		[
			'language',
			'activityDescription',
			'eclId',
			'scoreScaled',
			'success',
			'completion',
			'duration',
			'registration',
			'categories',
			'instructorName',
			'instructorHomePage',
			'instructorAccountName',
			'timestamp',
			'statementId',
			'idempotencyKey',
		].sort(),
	);
	// In JSON mode the additional fields hold only the idempotency key.
	const jsonAdditional = send.filter(
		(p) => p.name === 'additionalFields' && p.displayOptions?.show?.inputMode?.[0] === 'json',
	);
	expect(
		jsonAdditional.map((p) => (p.options ?? []).map((o) => (o as INodeProperties).name)),
	).toEqual([['idempotencyKey']]);
	expect(named(send, 'options')?.options?.map((o) => (o as INodeProperties).name)).toEqual([
		'batchSize',
	]);
	const language = (named(send, 'additionalFields')?.options as INodeProperties[]).find(
		(o) => o.name === 'language',
	);
	expect(language?.default).toBe('en-US');
});

test('get, getMany and void have their documented parameters', () => {
	// Output is listed once per default (node; tool of version 1; tool of 1.1): names once each.
	const names = (operation: string) => [...new Set(forOperation(operation).map((p) => p.name))];
	expect(names('get')).toEqual(['toolDescription', 'statementId', 'output', 'fields', 'options']);
	expect(
		(named(forOperation('get'), 'options')?.options as INodeProperties[]).map((o) => o.name),
	).toEqual(['voided']);
	expect(names('getMany')).toEqual([
		'toolDescription',
		'returnAll',
		'limit',
		'output',
		'fields',
		'filters',
		'options',
	]);
	expect(
		(named(forOperation('getMany'), 'filters')?.options as INodeProperties[])
			.map((o) => o.name)
			.sort(),
	).toEqual(
		['agentEmail', 'verb', 'activity', 'registration', 'since', 'until', 'ascending'].sort(),
	);
	expect(
		forOperation('void')
			.filter((p) => p.type !== 'notice')
			.map((p) => p.name),
	).toEqual(['toolDescription', 'statementId', 'actorName', 'actorEmail']);
});

test('option lists are sorted by name, as n8n expects', () => {
	for (const property of [
		named(forOperation('send'), 'verb'),
		named(forOperation('send'), 'activityType'),
	]) {
		const names = optionNames(property).filter((name) => name !== 'Custom');
		expect(names).toEqual([...names].sort());
	}
});

test('the trigger polls, with the filters of getMany and both completed IRIs as the default verb', () => {
	expect(trigger.name).toBe('xApiTrigger');
	expect(trigger.polling).toBe(true);
	expect(trigger.inputs).toEqual([]);
	const filters = named(trigger.properties, 'filters');
	const both =
		'http://adlnet.gov/expapi/verbs/completed http://activitystrea.ms/schema/1.0/complete';
	expect(filters?.default).toEqual({ verb: both });
	const options = filters?.options as INodeProperties[];
	expect(options.map((o) => o.name).sort()).toEqual([
		'activity',
		'agentEmail',
		'registration',
		'verb',
	]);
	const verb = named(options, 'verb');
	expect(verb?.default).toBe(both);
	// Every verb of Get Many, each alone, and the two completed IRIs together.
	expect(optionValues(verb).sort()).toEqual([...VERB_IRIS, both].sort());
	const names = optionNames(verb);
	expect(names).toEqual([...names].sort());
});

test('Get Many keeps one verb per query, with no default', () => {
	const filters = named(forOperation('getMany'), 'filters');
	expect(filters?.default).toEqual({});
	const verb = named(filters?.options as INodeProperties[], 'verb');
	expect(optionValues(verb).sort()).toEqual([...VERB_IRIS].sort());
});
