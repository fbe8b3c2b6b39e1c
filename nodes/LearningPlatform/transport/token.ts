import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import {
	MAX_ERROR_BODY_BYTES,
	errorAnswerMessage,
	issueMessage,
	jsonOf,
	readBody,
} from '../../shared/request/answer';
import type { TokenFailure } from '../../shared/pacing/clients';
import {
	clientRedactor,
	fingerprint,
	rememberSecret,
	sharedToken,
} from '../../shared/pacing/clients';
import type { DeclaredFailure } from '../../shared/request/failure';
import { fromRequestError, tokenRequestFailure, withFailure } from '../../shared/request/failure';
import { waitAfterThrottle } from '../../shared/request/retry';
import { authorizedFor, originOf } from '../../shared/request/origin';
import { baseUrlOf, lmsClientKey, requestTimeoutMs } from './index';
import { tokenShape } from './shapes';

interface TokenCredentials {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
}

function tokenCredentialsOf(credentials: ICredentialDataDecryptedObject): TokenCredentials {
	return {
		baseUrl: baseUrlOf(credentials),
		clientId: String(credentials.clientId ?? '').trim(),
		clientSecret: String(credentials.clientSecret ?? ''),
	};
}

/** What a token was issued for: a token is only ever sent with exactly these values. */
export function tokenFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const { baseUrl, clientId, clientSecret } = tokenCredentialsOf(credentials);
	return fingerprint(baseUrl, clientId, clientSecret);
}

/**
 * The credential's preAuthentication: a token for the current base URL, client id and secret
 * (shared with concurrent requests), and the fingerprint of those values, saved beside it.
 */
export async function issueAccessToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken: string; accessTokenFor: string }> {
	const values = tokenCredentialsOf(credentials);
	const stale = typeof credentials.accessToken === 'string' ? credentials.accessToken : undefined;
	const accessToken = await sharedToken(
		lmsClientKey(values),
		values.clientSecret,
		stale || undefined,
		async () => await requestToken(this, values, requestTimeoutMs(credentials)),
		{ retryThrottled: true },
	);
	return { accessToken, accessTokenFor: tokenFingerprint(credentials) };
}

/**
 * POST /api/oauth/token with the id and secret in the query string, as documented. No
 * redirect is followed (the URL carries the secret), the answer must be the documented JSON,
 * and any failure is rebuilt from its status and the API's message only, masked.
 */
async function requestToken(
	context: IHttpRequestHelper,
	{ baseUrl, clientId, clientSecret }: TokenCredentials,
	timeoutMs: number,
): Promise<{ token: string; expiresInSec?: number }> {
	const redactor = clientRedactor(lmsClientKey({ baseUrl, clientId }), clientSecret);
	if (!originOf(baseUrl)) {
		throw tokenFailure(redactor.text(`The Base URL is not an http(s) address: "${baseUrl}"`), {
			cause: 'configuration-invalid',
		});
	}
	const signal = AbortSignal.timeout(timeoutMs);
	let status = 0;
	let contentType = '';
	let text = '';
	try {
		const response = (await context.helpers.httpRequest({
			method: 'POST',
			url: `${baseUrl}/api/oauth/token`,
			qs: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
			headers: { Accept: 'application/json' },
			json: true,
			encoding: 'stream',
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: timeoutMs,
			abortSignal: signal,
		})) as { body?: unknown; headers?: Record<string, unknown>; statusCode?: number };
		status = Number(response.statusCode ?? 200);
		contentType = String(response.headers?.['content-type'] ?? '');
		text = (await readBody(response.body, MAX_ERROR_BODY_BYTES, signal)).text;
	} catch (error) {
		const words = redactor.text(
			`Could not get an access token from the platform (${await failureWords(error, signal)})`,
		);
		const problem = fromRequestError(error);
		const wait =
			problem.status === 429
				? waitAfterThrottle(problem.details.headers?.['retry-after'], 1)
				: undefined;
		throw tokenFailure(
			words,
			tokenRequestFailure(problem, signal.aborted),
			wait && 'waitMs' in wait ? wait.waitMs : undefined,
		);
	}
	let body: unknown;
	try {
		body = jsonOf(status, contentType, text);
	} catch {
		throw tokenFailure(
			redactor.text(
				`Could not get an access token from the platform (HTTP ${status}: the answer is not JSON)`,
			),
		);
	}
	// Masked before it is checked: a token the node refuses is still a live token.
	const issued = (body as { access_token?: unknown } | null)?.access_token;
	if (typeof issued === 'string') rememberSecret(lmsClientKey({ baseUrl, clientId }), issued);
	const token = tokenShape.safeParse(body);
	if (!token.success) {
		// Built from the status and the field's name only: the answer itself is never quoted.
		const issue = token.error.issues[0];
		const field = issue.path.join('.');
		throw tokenFailure(
			`Could not get an access token from the platform (HTTP ${status}: the answer is not a token: ${field ? `${field} ` : ''}${issueMessage(issue)})`,
		);
	}
	return { token: token.data.access_token, expiresInSec: token.data.expires_in };
}

/**
 * A token failure: a plain error built from masked words only (preAuthentication has no node
 * to attach an n8n error to; n8n wraps it for the request that needed the token, keeping it as
 * the cause, where its declared cause is read).
 */
function tokenFailure(
	words: string,
	failure?: DeclaredFailure,
	throttledForMs?: number,
): TokenFailure {
	return withFailure(Object.assign(new Error(words), { throttledForMs }), failure);
}

async function failureWords(error: unknown, signal: AbortSignal): Promise<string> {
	const problem = fromRequestError(error);
	if (problem.kind !== 'status' || !problem.status) {
		return signal.aborted ? 'no answer in time' : problem.message;
	}
	const status = problem.status;
	const apiMessage = await errorAnswerMessage(problem);
	if (status >= 300 && status < 400) {
		const location = String(problem.details.headers?.location ?? '');
		return `HTTP ${status}: the token endpoint redirects${location ? ` to ${location.split('?')[0]}` : ''}; the redirect was not followed, since the request carries the client secret`;
	}
	const hint = status === 401 ? ' (check the client ID and secret)' : '';
	return `HTTP ${status}${apiMessage ? `: ${apiMessage}` : ''}${hint}`;
}

/**
 * The credential's authenticate: adds the token only to requests for the base URL it was
 * issued for, and only while base URL, client id and secret are still the ones it was issued
 * with. Otherwise the request goes without it, the platform answers 401, and n8n asks
 * preAuthentication for a token for the current values.
 */
export function withAccessToken(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const token = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	const current = token && credentials.accessTokenFor === tokenFingerprint(credentials);
	return authorizedFor(
		requestOptions,
		originOf(baseUrlOf(credentials)),
		current ? `Bearer ${token}` : undefined,
	);
}
