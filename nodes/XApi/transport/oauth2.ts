import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { MAX_ERROR_BODY_BYTES, errorAnswerMessage, readBody } from '../../shared/request/answer';
import { clientRedactor, rememberSecret, sharedToken } from '../../shared/pacing/clients';
import type { DeclaredFailure } from '../../shared/request/failure';
import { fromRequestError, tokenRequestFailure, withFailure } from '../../shared/request/failure';
import { parseRetryAfter } from '../../shared/request/retry';
import { isHeaderSafe, originOf } from '../../shared/request/origin';
import type { Redactor } from '../../shared/request/redact';
import {
	DEFAULT_REQUEST_TIMEOUT_SEC,
	normalizedEndpoint,
	oauth2FingerprintOf,
	scopeOf,
	tokenUrlOf,
} from './authorization';
import { lrsClientKey } from './pacing';

/**
 * OAuth2 client credentials for the platform's push endpoint (platform-docs 002): a
 * form-encoded POST with `grant_type`, `scope`, `client_id` and `client_secret` in the body,
 * answered with `{access_token, token_type: "bearer", expires_in}`. The token is cached per
 * client in the process (shared/clients.ts), fetched once for concurrent requests, saved in the
 * credential with a fingerprint of the values it was issued for, and sent only to the
 * endpoint's origin while those values are unchanged.
 */

/** Token requests answered 429 are repeated, after their Retry-After, up to this many attempts in all. */
const TOKEN_ATTEMPTS_AFTER_429 = 4;

/** Retry-After for a token request, within 1 to 30 s (1 s when it is missing). */
function tokenRetryWaitMs(retryAfterMs: number | undefined): number {
	return Math.min(30_000, Math.max(1_000, retryAfterMs ?? 1_000));
}

interface OAuth2Values {
	endpoint: string;
	tokenUrl: string;
	clientId: string;
	clientSecret: string;
	scope: string;
}

function valuesOf(credentials: ICredentialDataDecryptedObject): OAuth2Values {
	return {
		endpoint: normalizedEndpoint(credentials.endpoint),
		tokenUrl: tokenUrlOf(credentials),
		clientId: String(credentials.clientId ?? '').trim(),
		clientSecret: String(credentials.clientSecret ?? ''),
		scope: scopeOf(credentials),
	};
}

/** The process-wide client (throttle, tokens, masks) of an OAuth2 xAPI credential. */
export function oauth2ClientKey(credentials: { endpoint?: unknown; clientId?: unknown }): string {
	return lrsClientKey({ ...credentials, authentication: 'oauth2' });
}

/** Everything to mask for an OAuth2 credential: its secret and every token issued for its client. */
export function oauth2Redactor(credentials: {
	endpoint?: unknown;
	clientId?: unknown;
	clientSecret?: unknown;
	accessToken?: unknown;
}): Redactor {
	return clientRedactor(
		oauth2ClientKey(credentials),
		credentials.clientSecret,
		credentials.accessToken,
	);
}

/**
 * The credential's preAuthentication for `oauth2`: a token for the current values (shared with
 * concurrent requests) and the fingerprint of those values. Other authentications have no
 * token: nothing is returned, so n8n saves nothing.
 */
export async function issueLrsAccessToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken?: string; accessTokenFor?: string }> {
	if (credentials.authentication !== 'oauth2') return {};
	const values = valuesOf(credentials);
	const stale = typeof credentials.accessToken === 'string' ? credentials.accessToken : undefined;
	const key = oauth2ClientKey(credentials);
	rememberSecret(key, values.clientSecret);
	// Tokens are cached by what they were issued for: a new secret, token URL or scope never reuses one.
	const issuedFor = `${values.clientSecret}\u0000${values.tokenUrl}\u0000${values.scope}`;
	const accessToken = await sharedToken(
		key,
		issuedFor,
		stale || undefined,
		async () => await requestToken(this, values, timeoutMsOf(credentials)),
	);
	return { accessToken, accessTokenFor: oauth2FingerprintOf(credentials) };
}

function timeoutMsOf(credentials: ICredentialDataDecryptedObject): number {
	const seconds = Number(credentials.requestTimeout);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_REQUEST_TIMEOUT_SEC) * 1000;
}

/** The form body of the token request, as documented (the secret in the body, never the URL). */
export function tokenRequestBody(values: {
	clientId: string;
	clientSecret: string;
	scope: string;
}): string {
	return new URLSearchParams({
		grant_type: 'client_credentials',
		scope: values.scope,
		client_id: values.clientId,
		client_secret: values.clientSecret,
	}).toString();
}

/**
 * POSTs the form to the token URL. No redirect is followed (the body carries the secret), the
 * answer is checked without ever being quoted (it holds the token), and every failure is
 * rebuilt from its status and the service's message only, masked.
 */
async function requestToken(
	context: IHttpRequestHelper,
	values: OAuth2Values,
	timeoutMs: number,
): Promise<{ token: string; expiresInSec?: number }> {
	const redactor = clientRedactor(oauth2ClientKey(values), values.clientSecret);
	const fail = (words: string, failure?: DeclaredFailure) =>
		withFailure(new Error(redactor.text(words)), failure);
	if (!values.clientId || !values.clientSecret) {
		throw fail('The credential has no client ID or client secret: both are needed for OAuth2', {
			cause: 'credential-invalid',
		});
	}
	if (!originOf(values.tokenUrl)) {
		throw fail(`The token URL is not an http(s) address: "${values.tokenUrl}"`, {
			cause: 'configuration-invalid',
		});
	}
	let status = 0;
	let contentType = '';
	let text = '';
	for (let attempt = 1; ; attempt++) {
		const signal = AbortSignal.timeout(timeoutMs);
		try {
			const response = (await context.helpers.httpRequest({
				method: 'POST',
				url: values.tokenUrl,
				body: tokenRequestBody(values),
				headers: {
					Accept: 'application/json',
					'Content-Type': 'application/x-www-form-urlencoded',
				},
				encoding: 'stream',
				returnFullResponse: true,
				disableFollowRedirect: true,
				timeout: timeoutMs,
				abortSignal: signal,
			})) as { body?: unknown; headers?: Record<string, unknown>; statusCode?: number };
			status = Number(response.statusCode ?? 200);
			contentType = String(response.headers?.['content-type'] ?? '');
			text = (await readBody(response.body, MAX_ERROR_BODY_BYTES, signal)).text;
			break;
		} catch (error) {
			// The organization's budget may count token requests too: a 429 is waited out.
			const failure = fromRequestError(error);
			if (failure.status === 429 && attempt < TOKEN_ATTEMPTS_AFTER_429) {
				await sleep(tokenRetryWaitMs(parseRetryAfter(failure.details.headers?.['retry-after'])));
				continue;
			}
			throw fail(await failureWords(error, signal), tokenRequestFailure(error, signal.aborted));
		}
	}
	const token = tokenFromAnswer(status, contentType, text);
	if ('problem' in token) {
		throw fail(`Could not get an access token from the record store (${token.problem})`);
	}
	return token;
}

/**
 * The token from a successful answer, or what is wrong with it, named by field only: the
 * answer is never quoted, since it holds (or may hold) the token.
 */
export function tokenFromAnswer(
	status: number,
	contentType: string,
	text: string,
): { token: string; expiresInSec?: number } | { problem: string } {
	const type = contentType.split(';')[0].trim() || 'no content type';
	const unexpected = (why: string) => ({
		problem: `unexpected answer (HTTP ${status}, ${type}): ${why}`,
	});
	if (status < 200 || status >= 300) return unexpected('not a token');
	let body: unknown;
	try {
		body = JSON.parse(text) as unknown;
	} catch {
		return unexpected(text.trim() ? 'not JSON' : 'empty body');
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return unexpected('not a JSON object');
	}
	const answer = body as Record<string, unknown>;
	const token = answer.access_token;
	if (typeof token !== 'string' || token.trim() === '') {
		return unexpected('access_token is missing or not text');
	}
	if (!isHeaderSafe(token, { spaces: false })) {
		return unexpected(
			'access_token holds characters that cannot be sent in an HTTP header (spaces, line breaks, control or non-ASCII characters)',
		);
	}
	if (answer.token_type !== undefined && String(answer.token_type).toLowerCase() !== 'bearer') {
		return unexpected('token_type is not "bearer"');
	}
	let expiresInSec: number | undefined;
	if (answer.expires_in !== undefined && answer.expires_in !== null) {
		expiresInSec = Number(answer.expires_in);
		if (!Number.isFinite(expiresInSec) || expiresInSec <= 0) {
			return unexpected('expires_in is not a positive number of seconds');
		}
	}
	return { token, expiresInSec };
}

async function failureWords(error: unknown, signal: AbortSignal): Promise<string> {
	const failure = fromRequestError(error);
	if (failure.kind !== 'status' || !failure.status) {
		const words = signal.aborted ? 'no answer in time' : failure.message;
		return `Could not get an access token from the record store (${words})`;
	}
	const apiMessage = await errorAnswerMessage(failure);
	const said = apiMessage ? `: ${apiMessage}` : '';
	if (failure.status >= 300 && failure.status < 400) {
		const location = String(failure.details.headers?.location ?? '');
		return `Could not get an access token from the record store (HTTP ${failure.status}: the token URL redirects${location ? ` to ${location.split('?')[0]}` : ''}; the redirect was not followed, since the request carries the client secret)`;
	}
	if (failure.status === 400 || failure.status === 401 || failure.status === 403) {
		return `The record store refused the client credentials (HTTP ${failure.status}${said}): check the client ID, the client secret and the scope; nothing was sent`;
	}
	return `Could not get an access token from the record store (HTTP ${failure.status}${said})`;
}
