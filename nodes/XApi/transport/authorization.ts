import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

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

/** The origin of the credential's endpoint, where its Authorization may go. */
function endpointOrigin(endpoint: unknown): string | undefined {
	try {
		const url = new URL(String(endpoint ?? '').trim());
		return /^https?:$/.test(url.protocol) ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Adds the Authorization and version headers, the first only to requests for the record
 * store's own origin: nothing else ever receives the token or the password.
 */
export function withLrsAuthorization(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const headers = { ...(requestOptions.headers ?? {}) };
	for (const name of Object.keys(headers))
		if (name.toLowerCase() === 'authorization') delete headers[name];
	headers['X-Experience-API-Version'] = XAPI_VERSION;
	let target: string | undefined;
	try {
		target = new URL(requestOptions.url, requestOptions.baseURL).origin;
	} catch {
		target = undefined;
	}
	const origin = endpointOrigin(credentials.endpoint);
	if (origin && target === origin) headers.Authorization = authorizationHeader(credentials);
	return { ...requestOptions, headers };
}
