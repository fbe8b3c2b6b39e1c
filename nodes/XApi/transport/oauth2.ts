import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';

import { requestClientToken } from '../../shared/request/clientCredentials';
import { requestTimeoutMs } from '../../shared/request/failure';
import { clientRedactor, rememberSecret, sharedToken } from '../../shared/request/secrets';
import {
	DEFAULT_REQUEST_TIMEOUT_SEC,
	lrsClientKey,
	oauth2FingerprintOf,
	scopeOf,
	tokenUrlOf,
} from './authorization';

/** Attempts in all, each after the 429's Retry-After. */
const TOKEN_ATTEMPTS_AFTER_429 = 4;

/** Other authentications return nothing, so n8n saves nothing. */
export async function issueLrsAccessToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken?: string; accessTokenFor?: string }> {
	if (credentials.authentication !== 'oauth2') return {};
	const tokenUrl = tokenUrlOf(credentials);
	const clientSecret = String(credentials.clientSecret ?? '');
	const scope = scopeOf(credentials);
	const stale = typeof credentials.accessToken === 'string' ? credentials.accessToken : undefined;
	const key = lrsClientKey(credentials);
	rememberSecret(key, clientSecret);
	// Tokens are cached by what they were issued for: a new secret, token URL or scope never reuses one.
	const issuedFor = `${clientSecret}\u0000${tokenUrl}\u0000${scope}`;
	const accessToken = await sharedToken(
		key,
		issuedFor,
		stale || undefined,
		async () =>
			await requestClientToken(this, {
				url: tokenUrl,
				clientId: String(credentials.clientId ?? '').trim(),
				clientSecret,
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
				redactor: clientRedactor(key, clientSecret),
				issued: (token) => rememberSecret(key, token),
			}),
	);
	return { accessToken, accessTokenFor: oauth2FingerprintOf(credentials) };
}
