import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, XAPI_NODE } from '../../helpers/workflows';

export const LRS_ORIGIN = 'https://lrs.test';
export const ENDPOINT_PATH = '/data/xAPI';
export const ENDPOINT = `${LRS_ORIGIN}${ENDPOINT_PATH}`;
export const STATEMENTS_PATH = `${ENDPOINT_PATH}/statements`;
export const TOKEN = 'Basic dGhlLWtleTp0aGUtc2VjcmV0';

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed';

export function tokenCredentials(overrides: IDataObject = {}) {
	return {
		xApiLrsApi: { endpoint: ENDPOINT, authentication: 'token', token: TOKEN, ...overrides },
	};
}

/** A statement as a learning record provider would send it (no id). */
export function statement(activity = 'https://learn.test/cards/1', email = 'ada@example.com') {
	return {
		actor: { name: 'Ada', mbox: `mailto:${email}` },
		verb: { id: COMPLETED, display: { 'en-US': 'completed' } },
		object: { objectType: 'Activity', id: activity },
	};
}

/** The same statement as a record store returns it, with the properties stores add. */
export function asStored(sent: IDataObject, stored = '2024-05-01T10:00:00.000Z'): IDataObject {
	return {
		...sent,
		stored,
		timestamp: (sent.timestamp as string) ?? stored,
		version: '1.0.3',
		authority: { objectType: 'Agent', name: 'client', mbox: 'mailto:client@lrs.test' },
	};
}

/** Runs the xAPI node in json mode with one statement per item, taken from the item's `statement`. */
export async function sendJson(
	items: IDataObject[],
	{
		options = {},
		continueOnFail = false,
	}: { options?: INodeParameters; continueOnFail?: boolean } = {},
) {
	return await runXApi(
		{
			resource: 'statement',
			operation: 'send',
			inputMode: 'json',
			statement: '={{ $json.statement }}',
			options,
		},
		items,
		{ continueOnFail },
	);
}

export async function runXApi(
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
	{
		continueOnFail = false,
		credentials = tokenCredentials(),
	}: { continueOnFail?: boolean; credentials?: ReturnType<typeof tokenCredentials> } = {},
) {
	return await runNode({ type: XAPI_NODE, parameters, items, credentials, continueOnFail });
}

/** The statements a POST body carries: one statement is sent as the object itself, several as an array. */
export function statementsIn(body: unknown): IDataObject[] {
	return Array.isArray(body) ? (body as IDataObject[]) : [body as IDataObject];
}

/** What a record store answers to a statements POST (xAPI 1.0.3): the array of the stored ids, for one statement too. */
export function storedIdsOf(body: unknown): string[] {
	return statementsIn(body).map((s) => s.id as string);
}

/**
 * Records every statements POST, answering each with `reply(statements, n)` (n counts from 0):
 * `raw` holds the bodies exactly as sent, `bodies` the statements of each.
 */
export function recordPosts(
	reply: (statements: IDataObject[], call: number) => [number, unknown] = (statements) => [
		200,
		statements.map((s) => s.id),
	],
	times = 50,
) {
	const bodies: IDataObject[][] = [];
	const raw: unknown[] = [];
	const scope = nock(LRS_ORIGIN)
		.post(STATEMENTS_PATH)
		.times(times)
		.reply((_uri, body) => {
			raw.push(body);
			const list = statementsIn(body);
			bodies.push(list);
			return reply(list, bodies.length - 1);
		});
	return { bodies, raw, scope };
}

export function resetNock() {
	nock.disableNetConnect();
	nock.cleanAll();
}
