/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { randomUUID } from 'node:crypto';

import { XAPI_VERSION_HEADER } from '../../../harness/lrs';
import type { RecordedRequest } from '../../../harness/recordingProxy';

export const COMPLETED_VERB = 'http://adlnet.gov/expapi/verbs/completed';
export const ATTEMPTED_VERB = 'http://adlnet.gov/expapi/verbs/attempted';
export const VOIDED_VERB = 'http://adlnet.gov/expapi/verbs/voided';
export const COURSE_TYPE = 'http://adlnet.gov/expapi/activities/course';

export interface Statement {
	id: string;
	[key: string]: unknown;
}

export function statementAbout(
	activityId: string,
	verb = COMPLETED_VERB,
	email = 'learner@example.com',
): Statement {
	return {
		id: randomUUID(),
		actor: { objectType: 'Agent', name: 'A Learner', mbox: `mailto:${email}` },
		verb: { id: verb, display: { 'en-US': verb.split('/').pop() } },
		object: { objectType: 'Activity', id: activityId },
	};
}

/** Stores statements straight in the record store (bypassing the proxy): test data, not node traffic. */
export async function storeStatements(
	storeEndpoint: string,
	statements: Statement[],
): Promise<void> {
	const answer = await fetch(`${storeEndpoint}/statements`, {
		method: 'POST',
		headers: { ...XAPI_VERSION_HEADER, 'Content-Type': 'application/json' },
		body: JSON.stringify(statements),
	});
	if (answer.status !== 200)
		throw new Error(`storing statements: ${answer.status} ${await answer.text()}`);
}

/** GET on the store itself: status and parsed body. */
export async function readStore(
	storeEndpoint: string,
	query: Record<string, string>,
): Promise<{ status: number; body: any }> {
	const answer = await fetch(`${storeEndpoint}/statements?${new URLSearchParams(query)}`, {
		headers: XAPI_VERSION_HEADER,
	});
	const text = await answer.text();
	return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

/** Every statement the store holds about one activity (following `more`). */
export async function statementsAbout(
	storeEndpoint: string,
	activityId: string,
): Promise<Statement[]> {
	const origin = new URL(storeEndpoint).origin;
	const statements: Statement[] = [];
	let url: string | undefined =
		`${storeEndpoint}/statements?${new URLSearchParams({ activity: activityId, limit: '500' })}`;
	while (url) {
		const answer = await fetch(url, { headers: XAPI_VERSION_HEADER });
		const page = (await answer.json()) as { statements: Statement[]; more?: string };
		statements.push(...page.statements);
		url = page.more ? new URL(page.more, origin).toString() : undefined;
	}
	return statements;
}

/** The statements POSTed through the proxy, one list per request (a single statement becomes a list of one). */
export function postedStatements(requests: RecordedRequest[]): Statement[][] {
	return requests
		.filter(
			(request) =>
				request.method === 'POST' &&
				new URL(request.url, 'http://x').pathname.endsWith('/statements'),
		)
		.map((request) => {
			const body = JSON.parse(request.body) as Statement | Statement[];
			return Array.isArray(body) ? body : [body];
		});
}

export function statementGets(requests: RecordedRequest[]): RecordedRequest[] {
	return requests.filter(
		(request) =>
			request.method === 'GET' && new URL(request.url, 'http://x').pathname.endsWith('/statements'),
	);
}
