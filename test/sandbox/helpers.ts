/* eslint-disable -- test or tooling code, not part of the n8n package: the community-node rules do not apply */
/**
 * Shared helpers for the sandbox tests: a started sandbox on a manual clock (no test waits
 * for time to pass or measures it) and small fetch wrappers that send the documented headers.
 */

import { ManualClock } from '../../sandbox/clock';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';

export const COURSES = '/api/developer/v2/courses.json';
export const USER_COURSES = '/api/developer/v2/user_courses.json';
export const REQUEST_DATA = '/api/developer/v2/request_data/';

/** Tests read arbitrary JSON answers by path; typing each shape would only restate the assertions. */
export type Json = any;

export interface Answer<T = Json> {
	status: number;
	headers: Headers;
	body: T;
}

/** The headers the documents require on every call but the token endpoint. */
export const DOCUMENTED_HEADERS = Object.freeze({
	Accept: 'application/json',
	'Content-Type': 'application/json',
});

/**
 * Defaults for tests: transactions complete at once, throttle off unless a test turns it on,
 * and a manual clock that moves only when the test advances it.
 */
export function startTestSandbox(
	options: Partial<SandboxOptions> = {},
	clock: ManualClock = new ManualClock(),
): Promise<Sandbox> {
	return startSandbox({ transactionDelayMs: 0, rateLimitPerMinute: 0, ...options }, { clock });
}

async function readAnswer(response: Response): Promise<Answer> {
	const text = await response.text();
	let body: unknown = text;
	try {
		body = text === '' ? null : JSON.parse(text);
	} catch {
		// Gateway faults answer HTML; keep the text.
	}
	return { status: response.status, headers: response.headers, body };
}

/** POSTs the token request; `params` replace or add to the three documented query parameters. */
export async function requestToken(
	sandbox: Sandbox,
	params: Record<string, string> = {},
): Promise<Answer> {
	const query = new URLSearchParams({
		client_id: sandbox.clientId,
		client_secret: sandbox.clientSecret,
		grant_type: 'client_credentials',
		...params,
	});
	return readAnswer(await fetch(`${sandbox.url}/api/oauth/token?${query}`, { method: 'POST' }));
}

export async function issueToken(sandbox: Sandbox): Promise<string> {
	const answer = await requestToken(sandbox);
	if (answer.status !== 200) throw new Error(`token request failed: ${answer.status}`);
	return answer.body.access_token as string;
}

export async function get(
	sandbox: Sandbox,
	path: string,
	token?: string,
	headerChanges: Record<string, string | undefined> = {},
): Promise<Answer> {
	const headers = withChanges({ ...DOCUMENTED_HEADERS }, headerChanges);
	if (token !== undefined) headers.Authorization = `Bearer ${token}`;
	return readAnswer(await fetch(`${sandbox.url}${path}`, { headers }));
}

/** Applies changes to headers: a value replaces, undefined removes. */
function withChanges(
	headers: Record<string, string>,
	changes: Record<string, string | undefined>,
): Record<string, string> {
	for (const [name, value] of Object.entries(changes)) {
		if (value === undefined) delete headers[name];
		else headers[name] = value;
	}
	return headers;
}

export async function post(
	sandbox: Sandbox,
	path: string,
	body: unknown,
	token?: string,
	headerChanges: Record<string, string | undefined> = {},
): Promise<Answer> {
	const headers = withChanges({ ...DOCUMENTED_HEADERS }, headerChanges);
	if (token !== undefined) headers.Authorization = `Bearer ${token}`;
	return readAnswer(
		await fetch(`${sandbox.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
	);
}

/**
 * Reads a transaction through request_data and returns its `data` once it has ended; the
 * test sandbox completes writes at once (transactionDelayMs 0), so one look is enough.
 */
export async function transactionOutcome(
	sandbox: Sandbox,
	token: string,
	id: string,
): Promise<Json> {
	const answer = await get(sandbox, `${REQUEST_DATA}${id}`, token);
	if (answer.status !== 200) throw new Error(`request_data answered ${answer.status}`);
	if (answer.body.data.status === 'initiated') throw new Error(`transaction ${id} still initiated`);
	return answer.body.data;
}

/** Posts a write and returns how its transaction ended. */
export async function writeAndWait(
	sandbox: Sandbox,
	token: string,
	path: string,
	body: unknown,
): Promise<Json> {
	const accepted = await post(sandbox, path, body, token);
	if (accepted.status !== 202)
		throw new Error(`write answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
	return transactionOutcome(sandbox, token, accepted.body.data.id);
}

/** UUID in the 8-4-4-4-12 hex form. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function courseBody(
	externalId: string,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		name: `Course ${externalId}`,
		url: `https://courses.example.com/${externalId}`,
		external_id: externalId,
		prices_data: [],
		...extra,
	};
}
