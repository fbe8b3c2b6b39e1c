import type { IAuthenticateRuleResponseCode, IHttpRequestOptions } from 'n8n-workflow';

export function originOf(address: unknown): string | undefined {
	try {
		const url = new URL(String(address ?? '').trim());
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

/** Lower-case `authorization`, for `origin` only: older n8n copies `Authorization` onto any redirect. */
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
	if (authorization && origin && target === origin) headers.authorization = authorization;
	return { ...requestOptions, headers, sendCredentialsOnCrossOriginRedirect: false };
}

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** A credential Test follows no redirect: these rules name the field to correct. */
export function redirectTestRules(field: string): IAuthenticateRuleResponseCode[] {
	return REDIRECT_STATUSES.map((status) => ({
		type: 'responseCode' as const,
		properties: {
			value: status,
			message: `The server answered with a redirect (HTTP ${status}). The Test follows no redirect, so the credentials stay with this address: enter the address it redirects to as the ${field}.`,
		},
	}));
}

/** n8n's HTTP layer strips or alters anything but visible ASCII in a header (NUL, `€`, …). */
export function isHeaderSafe(value: string, { spaces }: { spaces: boolean }): boolean {
	return (spaces ? /^[\x20-\x7E]*$/ : /^[\x21-\x7E]*$/).test(value);
}
