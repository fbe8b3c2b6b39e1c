import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { clientKey, fingerprint } from '../../shared/request/clientSecrets';
import { authorizedFor, isHeaderSafe, originOf } from '../../shared/request/origin';

/** The fields an OAuth2 token is issued for. */
interface OAuth2Fields {
	endpoint?: unknown;
	tokenUrl?: unknown;
	clientId?: unknown;
	clientSecret?: unknown;
	scope?: unknown;
}

/** The only xAPI version this package speaks; every record store call names it. */
export const XAPI_VERSION = '1.0.3';

/**
 * The Authorization value: the token exactly as given (outer spaces aside), HTTP Basic, or for
 * `oauth2` the access token as Bearer, only while the credential's values are the ones it was
 * issued for (otherwise none: the store answers 401 and n8n asks for a token for the new values).
 */
export function authorizationHeader(
	credentials: OAuth2Fields & {
		authentication?: unknown;
		token?: unknown;
		username?: unknown;
		password?: unknown;
		accessToken?: unknown;
		accessTokenFor?: unknown;
	},
): string {
	if (credentials.authentication === 'oauth2') {
		const token = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
		const current = token !== '' && credentials.accessTokenFor === oauth2FingerprintOf(credentials);
		return current ? `Bearer ${token}` : '';
	}
	if (credentials.authentication === 'basic') {
		const pair = `${String(credentials.username ?? '')}:${String(credentials.password ?? '')}`;
		return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
	}
	return String(credentials.token ?? '').trim();
}

/**
 * Why the credential's Authorization value cannot be sent as configured, or undefined. A token
 * with a line break, a control or a non-ASCII character would reach the record store altered by
 * the HTTP layer, so it is refused, without quoting it. (Basic is base64, always sendable.)
 */
export function authorizationProblem(credentials: {
	authentication?: unknown;
	token?: unknown;
}): string | undefined {
	// Basic is base64; an OAuth2 token is checked when it is issued.
	if (credentials.authentication === 'basic' || credentials.authentication === 'oauth2') {
		return undefined;
	}
	const header = authorizationHeader(credentials);
	if (isHeaderSafe(header, { spaces: true })) return undefined;
	return "The credential's Token holds a character that cannot be sent in an HTTP header (a line break, a control character or a non-ASCII character such as €): copy the token again from where it was given";
}

/** The endpoint as the nodes use it: outer spaces, trailing slashes and a pasted `/statements` dropped. */
export function normalizedEndpoint(endpoint: unknown): string {
	return String(endpoint ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/statements$/i, '');
}

/** The documented token path under the endpoint (`{host}/api/lrs/v1/xapi/oauth2/token`). */
export const TOKEN_PATH = '/oauth2/token';

export const DEFAULT_SCOPE = 'xapi:write';

/** The scope asked for: the credential's, or the documented `xapi:write` when it is empty. */
export function scopeOf(credentials: { scope?: unknown }): string {
	return String(credentials.scope ?? '').trim() || DEFAULT_SCOPE;
}

/** The token URL: the credential's, or `{endpoint}/oauth2/token` when it is empty. */
export function tokenUrlOf(credentials: { endpoint?: unknown; tokenUrl?: unknown }): string {
	const given = String(credentials.tokenUrl ?? '').trim();
	return given || `${normalizedEndpoint(credentials.endpoint)}${TOKEN_PATH}`;
}

/** What an OAuth2 token was issued for: it is only ever sent with exactly these values. */
export function oauth2FingerprintOf(credentials: OAuth2Fields): string {
	return fingerprint(
		'xapi-oauth2',
		normalizedEndpoint(credentials.endpoint),
		tokenUrlOf(credentials),
		String(credentials.clientId ?? '').trim(),
		String(credentials.clientSecret ?? ''),
		scopeOf(credentials),
	);
}

/** One answer may take this long when the credential does not say. */
export const DEFAULT_REQUEST_TIMEOUT_SEC = 60;

/**
 * Adds the Authorization and version headers, the first only to requests for the record
 * store's own origin: nothing else ever receives the token, the password or the access token.
 */
export function withLrsAuthorization(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const header = authorizationHeader(credentials);
	const problem = authorizationProblem(credentials);
	if (problem) throw new Error(problem);
	return authorizedFor(
		requestOptions,
		originOf(normalizedEndpoint(credentials.endpoint)),
		header || undefined,
		{
			'X-Experience-API-Version': XAPI_VERSION,
		},
	);
}

/**
 * Client-side pacing of a record store. The platform's push endpoint allows 10 requests per
 * 10 seconds per organization (platform-docs 002): for `oauth2` the credential's Requests per
 * Minute defaults to that budget, 60. Token and Basic have no documented limit: no pacing
 * unless the credential sets a rate (429s are waited out either way).
 */
export const DEFAULT_OAUTH2_REQUESTS_PER_MINUTE = 60;

/** The process-wide client of a record store credential (see shared/request/clientSecrets.ts). */
export function lrsClientKey(credentials: {
	endpoint?: unknown;
	authentication?: unknown;
	clientId?: unknown;
	username?: unknown;
	token?: unknown;
}): string {
	const endpoint = `xapi:${normalizedEndpoint(credentials.endpoint)}`;
	switch (credentials.authentication) {
		case 'oauth2':
			return clientKey(endpoint, String(credentials.clientId ?? '').trim());
		case 'basic':
			return clientKey(endpoint, `basic:${String(credentials.username ?? '')}`);
		default:
			return clientKey(endpoint, `token:${fingerprint(String(credentials.token ?? '').trim())}`);
	}
}
