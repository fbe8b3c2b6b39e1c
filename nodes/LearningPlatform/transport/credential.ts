import type { IDataObject } from 'n8n-workflow';

import { fingerprint, savedToken, type TokenSource } from '../../shared/request/clientCredentials';
import { requestTimeoutMs } from '../../shared/request/failure';
import { clientKey } from '../../shared/request/secrets';

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
	accessTokenFor?: string;
	/** When this package renews the saved token (its `expires_in`, less a margin), in epoch ms. */
	accessTokenExpiresAt?: number;
}

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
export function tokenFingerprint(credentials: Readonly<Record<string, unknown>>): string {
	return fingerprint(
		baseUrlOf(credentials),
		String(credentials.clientId ?? '').trim(),
		String(credentials.clientSecret ?? ''),
	);
}

/** The platform's token request (4.1), for the credential's preAuthentication and the node alike. */
export function lmsTokenSource(credentials: Readonly<Record<string, unknown>>): TokenSource {
	return {
		credentials,
		key: lmsClientKey(credentials),
		endpoint: {
			url: `${baseUrlOf(credentials)}/api/oauth/token`,
			secretIn: 'query',
			from: 'the platform',
			refused: { statuses: [401], check: 'the client ID and secret' },
			// Another process may be spending the client's budget: a 429 holds the client back and is tried again.
			attempts: 12,
			timeoutMs: requestTimeoutMs(credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
		},
		saved: savedToken(credentials, tokenFingerprint(credentials)),
	};
}
