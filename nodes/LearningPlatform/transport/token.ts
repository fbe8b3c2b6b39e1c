import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { requestClientToken } from '../../shared/request/clientCredentials';
import { requestTimeoutMs } from '../../shared/request/failure';
import {
	authorizedFor,
	clientRedactor,
	fingerprint,
	holdClientBack,
	originOf,
	rememberSecret,
	sharedToken,
} from '../../shared/request/secrets';
import { DEFAULT_REQUEST_TIMEOUT_SEC, baseUrlOf, lmsClientKey } from './credential';

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

/** preAuthentication: one token shared by concurrent requests, saved with its fingerprint. */
export async function issueAccessToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken: string; accessTokenFor: string }> {
	const values = tokenCredentialsOf(credentials);
	const stale = typeof credentials.accessToken === 'string' ? credentials.accessToken : undefined;
	const key = lmsClientKey(values);
	const accessToken = await sharedToken(
		key,
		values.clientSecret,
		stale || undefined,
		async () =>
			await requestClientToken(this, {
				url: `${values.baseUrl}/api/oauth/token`,
				clientId: values.clientId,
				clientSecret: values.clientSecret,
				secretIn: 'query',
				from: 'the platform',
				refused: { statuses: [401], check: 'the client ID and secret' },
				// Another process may be spending the client's budget: a 429 holds the client back and is tried again.
				attempts: 12,
				throttled: (waitMs) => holdClientBack(key, waitMs),
				timeoutMs: requestTimeoutMs(credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
				redactor: clientRedactor(key, values.clientSecret),
				issued: (token) => rememberSecret(key, token),
			}),
	);
	return { accessToken, accessTokenFor: tokenFingerprint(credentials) };
}

/** authenticate: the token goes only with the values it was issued for; else a 401 gets a new one. */
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
