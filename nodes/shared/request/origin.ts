import type { IAuthenticateRuleResponseCode, IHttpRequestOptions } from 'n8n-workflow';

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
 *
 * This is what every consumer of the credentials gets (the nodes, the credential Test, n8n's
 * HTTP Request node), so it must also hold when n8n's request helper follows a redirect:
 * - `sendCredentialsOnCrossOriginRedirect: false` asks n8n not to copy credentials onto a
 *   redirect to another origin (n8n versions that know the option);
 * - the header is spelled `authorization`: older n8n versions copy only a header named exactly
 *   `Authorization` onto every redirect, while the redirect follower itself drops
 *   `authorization`, in any case, when the host changes.
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
	if (authorization && origin && target === origin) headers.authorization = authorization;
	return { ...requestOptions, headers, sendCredentialsOnCrossOriginRedirect: false };
}

/** The answers that send a client elsewhere. */
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/**
 * A credential Test follows no redirect (`disableFollowRedirect` on its request): these rules
 * say why it failed, naming the field to correct.
 */
export function redirectTestRules(field: string): IAuthenticateRuleResponseCode[] {
	return REDIRECT_STATUSES.map((status) => ({
		type: 'responseCode' as const,
		properties: {
			value: status,
			message: `The server answered with a redirect (HTTP ${status}). The Test follows no redirect, so the credentials stay with this address: enter the address it redirects to as the ${field}.`,
		},
	}));
}

/**
 * Whether a value travels unchanged as an HTTP header value: visible ASCII only (and spaces,
 * where `spaces`). n8n's HTTP layer silently strips or alters anything else (line breaks, NUL,
 * `€`), so the server would see another value than the one configured or issued.
 */
export function isHeaderSafe(value: string, { spaces }: { spaces: boolean }): boolean {
	return (spaces ? /^[\x20-\x7E]*$/ : /^[\x21-\x7E]*$/).test(value);
}
