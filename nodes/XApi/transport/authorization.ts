import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { requestTimeoutMs } from '../../shared/request/failure';
import {
	authorizedFor,
	clientToken,
	fingerprint,
	isHeaderSafe,
	originOf,
	savedToken,
	tokenToSend,
	type TokenSource,
} from '../../shared/request/clientCredentials';
import { clientKey, clientRedactor, Redactor } from '../../shared/request/secrets';

/** As the credential saves them (credentials/XApiLrsApi.credentials.ts), each checked where it is read. */
type LrsCredentialFields = Record<string, unknown>;

export const XAPI_VERSION = '1.0.3';

export const DEFAULT_REQUEST_TIMEOUT_SEC = 60;

/** The push endpoint allows 10 requests per 10 s (platform-docs 002); Token and Basic: unpaced unless set. */
export const DEFAULT_OAUTH2_REQUESTS_PER_MINUTE = 60;

export const DEFAULT_SCOPE = 'xapi:write';

/** OAuth2: only while the credential holds the values the token was issued for (else 401: n8n asks anew). */
export function authorizationHeader(credentials: LrsCredentialFields): string {
	if (credentials.authentication === 'oauth2') {
		const token = tokenToSend(lrsTokenSource(credentials));
		return token ? `Bearer ${token}` : '';
	}
	if (credentials.authentication === 'basic') {
		const pair = `${String(credentials.username ?? '')}:${String(credentials.password ?? '')}`;
		return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
	}
	return String(credentials.token ?? '').trim();
}

/** A token the HTTP layer would alter (line break, control, non-ASCII) is refused, without quoting it. */
export function authorizationProblem(credentials: LrsCredentialFields): string | undefined {
	// Basic is base64; an OAuth2 token is checked when it is issued.
	if (['basic', 'oauth2'].includes(credentials.authentication as string)) return undefined;
	if (isHeaderSafe(authorizationHeader(credentials), { spaces: true })) return undefined;
	return "The credential's Token holds a character that cannot be sent in an HTTP header (a line break, a control character or a non-ASCII character such as €): copy the token again from where it was given";
}

export function normalizedEndpoint(endpoint: unknown): string {
	return String(endpoint ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/statements$/i, '');
}

export function scopeOf(credentials: LrsCredentialFields): string {
	return String(credentials.scope ?? '').trim() || DEFAULT_SCOPE;
}

/** Documented as `{host}/api/lrs/v1/xapi/oauth2/token`. */
export function tokenUrlOf(credentials: LrsCredentialFields): string {
	const given = String(credentials.tokenUrl ?? '').trim();
	return given || `${normalizedEndpoint(credentials.endpoint)}/oauth2/token`;
}

/** An OAuth2 token is only ever sent with exactly the values it was issued for. */
export function oauth2FingerprintOf(credentials: LrsCredentialFields): string {
	return fingerprint(
		'xapi-oauth2',
		normalizedEndpoint(credentials.endpoint),
		tokenUrlOf(credentials),
		String(credentials.clientId ?? '').trim(),
		String(credentials.clientSecret ?? ''),
		scopeOf(credentials),
	);
}

/** Authorization goes only to the record store's own origin: nothing else receives a secret. */
export function withLrsAuthorization(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const problem = authorizationProblem(credentials);
	if (problem) throw new Error(problem);
	return authorizedFor(
		requestOptions,
		originOf(normalizedEndpoint(credentials.endpoint)),
		authorizationHeader(credentials) || undefined,
		{ 'X-Experience-API-Version': XAPI_VERSION },
	);
}

export function lrsClientKey(credentials: LrsCredentialFields): string {
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

/** OAuth2: the client's mask, which knows every secret and token issued to it. */
export function lrsRedactor(credentials: LrsCredentialFields): Redactor {
	if (credentials.authentication === 'oauth2') {
		return clientRedactor(
			lrsClientKey(credentials),
			credentials.clientSecret,
			credentials.accessToken,
		);
	}
	return new Redactor([credentials.token, credentials.password, authorizationHeader(credentials)]);
}

/** Attempts in all, each after the 429's Retry-After. */
const TOKEN_ATTEMPTS_AFTER_429 = 4;

/** The push endpoint's token request (platform-docs 002), for preAuthentication and the node. */
export function lrsTokenSource(credentials: LrsCredentialFields): TokenSource {
	const tokenUrl = tokenUrlOf(credentials);
	const scope = scopeOf(credentials);
	return {
		credentials,
		key: lrsClientKey(credentials),
		endpoint: {
			url: tokenUrl,
			scope,
			// The push endpoint takes the client secret in a form body (platform-docs 002).
			secretIn: 'form',
			from: 'the record store',
			refused: {
				statuses: [400, 401, 403],
				check: 'the client ID, the client secret and the scope',
			},
			attempts: TOKEN_ATTEMPTS_AFTER_429,
			timeoutMs: requestTimeoutMs(credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
		},
		// Tokens are cached by what they were issued for: a new secret, token URL or scope never reuses one.
		issuedFor: `${String(credentials.clientSecret ?? '')}\u0000${tokenUrl}\u0000${scope}`,
		saved: savedToken(credentials, oauth2FingerprintOf(credentials)),
	};
}

/** Other authentications return nothing, so n8n saves nothing. */
export async function issueLrsAccessToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken?: string; accessTokenFor?: string; accessTokenExpiresAt?: number }> {
	if (credentials.authentication !== 'oauth2') return {};
	const issued = await clientToken(this, lrsTokenSource(credentials));
	return { ...issued, accessTokenFor: oauth2FingerprintOf(credentials) };
}
