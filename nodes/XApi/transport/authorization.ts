import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { authorizedFor, originOf } from '../../shared/origin';

/** The only xAPI version this package speaks; every record store call names it. */
export const XAPI_VERSION = '1.0.3';

/** The Authorization value: the token exactly as given (outer spaces aside), or HTTP Basic. */
export function authorizationHeader(credentials: {
	authentication?: unknown;
	token?: unknown;
	username?: unknown;
	password?: unknown;
}): string {
	if (credentials.authentication === 'basic') {
		const pair = `${String(credentials.username ?? '')}:${String(credentials.password ?? '')}`;
		return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
	}
	return String(credentials.token ?? '').trim();
}

/** One answer may take this long when the credential does not say. */
export const DEFAULT_REQUEST_TIMEOUT_SEC = 60;

/**
 * Adds the Authorization and version headers, the first only to requests for the record
 * store's own origin: nothing else ever receives the token or the password.
 */
export function withLrsAuthorization(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	return authorizedFor(
		requestOptions,
		originOf(credentials.endpoint),
		authorizationHeader(credentials),
		{
			'X-Experience-API-Version': XAPI_VERSION,
		},
	);
}
