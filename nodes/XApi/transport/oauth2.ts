import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';

import { requestClientToken } from '../../shared/request/clientCredentials';
import { requestTimeoutMs } from '../../shared/request/failure';
import { clientRedactor, rememberSecret, sharedToken } from '../../shared/request/secrets';
import type { Redactor } from '../../shared/request/secrets';
import {
	DEFAULT_REQUEST_TIMEOUT_SEC,
	normalizedEndpoint,
	oauth2FingerprintOf,
	scopeOf,
	lrsClientKey,
	tokenUrlOf,
} from './authorization';

// The push endpoint takes the client secret in a form body (platform-docs 002).

/** Attempts in all, each after the 429's Retry-After. */
const TOKEN_ATTEMPTS_AFTER_429 = 4;

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

export function oauth2ClientKey(credentials: { endpoint?: unknown; clientId?: unknown }): string {
	return lrsClientKey({ ...credentials, authentication: 'oauth2' });
}

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

/** Other authentications return nothing, so n8n saves nothing. */
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
		async () =>
			await requestClientToken(this, {
				url: values.tokenUrl,
				clientId: values.clientId,
				clientSecret: values.clientSecret,
				scope: values.scope,
				secretIn: 'form',
				from: 'the record store',
				refused: {
					statuses: [400, 401, 403],
					check: 'the client ID, the client secret and the scope',
				},
				attempts: TOKEN_ATTEMPTS_AFTER_429,
				timeoutMs: requestTimeoutMs(credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
				redactor: clientRedactor(key, values.clientSecret),
				issued: (token) => rememberSecret(key, token),
			}),
	);
	return { accessToken, accessTokenFor: oauth2FingerprintOf(credentials) };
}
