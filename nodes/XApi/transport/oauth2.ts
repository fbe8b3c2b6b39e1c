import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';

import { clientToken } from '../../shared/request/clientCredentials';
import { requestTimeoutMs } from '../../shared/request/answer';
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
	const scope = scopeOf(credentials);
	const accessToken = await clientToken(
		this,
		credentials,
		lrsClientKey(credentials),
		{
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
		`${String(credentials.clientSecret ?? '')}\u0000${tokenUrl}\u0000${scope}`,
	);
	return { accessToken, accessTokenFor: oauth2FingerprintOf(credentials) };
}
