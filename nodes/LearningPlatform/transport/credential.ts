import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { requestClientToken } from '../../shared/request/clientCredentials';
import {
	clientKey,
	clientRedactor,
	fingerprint,
	holdClientBack,
	rememberSecret,
	sharedToken,
} from '../../shared/request/clientSecrets';
import { authorizedFor, originOf } from '../../shared/request/origin';
import { requestTimeoutMs } from '../../shared/request/retry';

export const CREDENTIAL_TYPE = 'learningPlatformOAuth2Api';

/** One answer may take this long when the credential does not say. */
export const DEFAULT_REQUEST_TIMEOUT_SEC = 30;

export interface LmsCredentials extends IDataObject {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	requestsPerMinute: number;
	requestTimeout?: number;
	accessToken?: string;
}

/** The base URL as the credential gives it, without trailing slashes. */
export function baseUrlOf(credentials: { baseUrl?: unknown }): string {
	return String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** The credential's client, as the token request, the masks and the throttle know it. */
export function lmsClientKey(credentials: { baseUrl?: unknown; clientId?: unknown }): string {
	return clientKey(baseUrlOf(credentials), String(credentials.clientId ?? ''));
}

/** What a token was issued for: a token is only ever sent with exactly these values. */
export function tokenFingerprint(credentials: ICredentialDataDecryptedObject): string {
	return fingerprint(
		baseUrlOf(credentials),
		String(credentials.clientId ?? '').trim(),
		String(credentials.clientSecret ?? ''),
	);
}

/** preAuthentication: one token shared by concurrent requests, saved with its fingerprint. */
export async function issueAccessToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken: string; accessTokenFor: string }> {
	const clientSecret = String(credentials.clientSecret ?? '');
	const stale = typeof credentials.accessToken === 'string' ? credentials.accessToken : undefined;
	const key = lmsClientKey(credentials);
	const accessToken = await sharedToken(
		key,
		clientSecret,
		stale || undefined,
		async () =>
			await requestClientToken(this, {
				url: `${baseUrlOf(credentials)}/api/oauth/token`,
				clientId: String(credentials.clientId ?? '').trim(),
				clientSecret,
				secretIn: 'query',
				from: 'the platform',
				refused: { statuses: [401], check: 'the client ID and secret' },
				// Another process may be spending the client's budget: a 429 holds the client back and is tried again.
				attempts: 12,
				throttled: (waitMs) => holdClientBack(key, waitMs),
				timeoutMs: requestTimeoutMs(credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
				redactor: clientRedactor(key, clientSecret),
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
