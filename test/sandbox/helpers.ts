/* eslint-disable -- test or tooling code, not part of the n8n package: the community-node rules do not apply */
/** Shared helpers for the sandbox tests: a started sandbox and small fetch wrappers. */

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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Defaults for tests: fast transactions, throttle off unless a test turns it on. */
export function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
	return startSandbox({ transactionDelayMs: 0, rateLimitPerMinute: 0, ...options });
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

export async function requestToken(
	sandbox: Sandbox,
	params: Partial<Record<'client_id' | 'client_secret' | 'grant_type', string>> = {},
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

export async function get(sandbox: Sandbox, path: string, token?: string): Promise<Answer> {
	const headers: Record<string, string> = { Accept: 'application/json' };
	if (token !== undefined) headers.Authorization = `Bearer ${token}`;
	return readAnswer(await fetch(`${sandbox.url}${path}`, { headers }));
}

export async function post(
	sandbox: Sandbox,
	path: string,
	body: unknown,
	token?: string,
): Promise<Answer> {
	const headers: Record<string, string> = {
		'Content-Type': 'application/json',
		Accept: 'application/json',
	};
	if (token !== undefined) headers.Authorization = `Bearer ${token}`;
	return readAnswer(
		await fetch(`${sandbox.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
	);
}

/** Polls request_data until the transaction leaves `initiated`. */
export async function waitForTransaction(
	sandbox: Sandbox,
	token: string,
	id: string,
	timeoutMs = 3000,
): Promise<Json> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const answer = await get(sandbox, `${REQUEST_DATA}${id}`, token);
		if (answer.status !== 200) throw new Error(`request_data answered ${answer.status}`);
		if (answer.body.data.status !== 'initiated') return answer.body.data;
		if (Date.now() > deadline) throw new Error(`transaction ${id} still initiated`);
		await sleep(20);
	}
}

/** Posts a write and waits for its transaction to end. */
export async function writeAndWait(
	sandbox: Sandbox,
	token: string,
	path: string,
	body: unknown,
): Promise<Json> {
	const accepted = await post(sandbox, path, body, token);
	if (accepted.status !== 202)
		throw new Error(`write answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
	return waitForTransaction(sandbox, token, accepted.body.data.id);
}

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
