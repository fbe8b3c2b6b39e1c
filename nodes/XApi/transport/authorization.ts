import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { authorizedFor, isHeaderSafe, originOf } from '../../shared/request/origin';

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

/**
 * Why the credential's Authorization value cannot be sent as configured, or undefined. A token
 * with a line break, a control or a non-ASCII character would reach the record store altered by
 * the HTTP layer, so it is refused, without quoting it. (Basic is base64, always sendable.)
 */
export function authorizationProblem(credentials: {
	authentication?: unknown;
	token?: unknown;
}): string | undefined {
	if (credentials.authentication === 'basic') return undefined;
	const header = authorizationHeader(credentials);
	if (isHeaderSafe(header, { spaces: true })) return undefined;
	return "The credential's Token holds a character that cannot be sent in an HTTP header (a line break, a control character or a non-ASCII character such as €): copy the token again from where it was given";
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
	const header = authorizationHeader(credentials);
	const problem = authorizationProblem(credentials);
	if (problem) throw new Error(problem);
	return authorizedFor(
		requestOptions,
		originOf(credentials.endpoint),
		header,
		{
			'X-Experience-API-Version': XAPI_VERSION,
		},
	);
}
