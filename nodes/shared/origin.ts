import type { IHttpRequestOptions } from 'n8n-workflow';

/** The scheme, host and port of an http(s) address; undefined for anything else. */
export function originOf(address: unknown): string | undefined {
	try {
		const url = new URL(String(address ?? '').trim());
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The request with `authorization` as its Authorization header when it goes to `origin`, and
 * with no Authorization header at all otherwise: credentials never travel to another host.
 */
export function authorizedFor(
	requestOptions: IHttpRequestOptions,
	origin: string | undefined,
	authorization: string | undefined,
	extraHeaders: Record<string, string> = {},
): IHttpRequestOptions {
	const headers = { ...(requestOptions.headers ?? {}), ...extraHeaders };
	for (const name of Object.keys(headers)) {
		if (name.toLowerCase() === 'authorization') delete headers[name];
	}
	// n8n's legacy request path (used e.g. by the HTTP Request node) names the address `uri`.
	const legacy = requestOptions as { uri?: string; baseUrl?: string };
	const address = requestOptions.url || legacy.uri;
	let target: string | undefined;
	try {
		target = new URL(String(address), requestOptions.baseURL ?? legacy.baseUrl).origin;
	} catch {
		target = undefined;
	}
	if (authorization && origin && target === origin) headers.Authorization = authorization;
	return { ...requestOptions, headers };
}
