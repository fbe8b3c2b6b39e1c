import { createHash } from 'crypto';
import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	type DeclaredFailure,
	type HttpProblem,
	declaredFailure,
	fromRequestError,
	messageFromBody,
	withFailure,
} from './failure';
import { MAX_ERROR_BODY_BYTES, errorBodyOf, readBody } from './body';
import { waitAfterThrottle } from './failure';
import type { Redactor } from './secrets';
import { clientRedactor, liveClientRedactor } from './secrets';

export function fingerprint(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

export function originOf(address: unknown): string | undefined {
	const text = String(address ?? '').trim();
	const url = URL.canParse(text) ? new URL(text) : undefined;
	return url?.protocol === 'http:' || url?.protocol === 'https:' ? url.origin : undefined;
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
	const address = String(requestOptions.url || legacy.uri);
	const base = requestOptions.baseURL ?? legacy.baseUrl;
	const target = URL.canParse(address, base) ? new URL(address, base).origin : undefined;
	if (authorization && origin && target === origin) headers.authorization = authorization;
	return { ...requestOptions, headers, sendCredentialsOnCrossOriginRedirect: false };
}

/** n8n's HTTP layer strips or alters anything but visible ASCII in a header (NUL, `€`, …). */
export function isHeaderSafe(value: string, { spaces }: { spaces: boolean }): boolean {
	return (spaces ? /^[\x20-\x7E]*$/ : /^[\x21-\x7E]*$/).test(value);
}

/** Each client's throttle, set by its run: a token request's 429 holds the client back too. */
const holdBacks = new Map<string, (waitMs: number) => void>();

export function setClientHoldBack(key: string, holdBack: (waitMs: number) => void): void {
	holdBacks.set(key, holdBack);
}

export function holdClientBack(key: string, waitMs: number): void {
	holdBacks.get(key)?.(waitMs);
}

/** Bounds the masks a long-running process keeps: tokens this old are long expired. */
const MAX_REMEMBERED_TOKENS = 1_000;

const rememberedTokens = new Map<string, number>();

function rememberSecret(key: string, value: string): void {
	const count = rememberedTokens.get(key) ?? 0;
	if (count >= MAX_REMEMBERED_TOKENS) liveClientRedactor(key).forgetAll();
	rememberedTokens.set(key, count >= MAX_REMEMBERED_TOKENS ? 0 : count + 1);
	liveClientRedactor(key).add(value);
}

export interface TokenEndpoint {
	url: string;
	clientId: string;
	clientSecret: string;
	scope?: string;
	/** The LMS API takes the secret in the query string; the xAPI push endpoint in a form body. */
	secretIn: 'query' | 'form';
	from: string;
	refused: { statuses: number[]; check: string };
	attempts: number;
	/** Told how long each 429 holds the client, so that its other requests hold back too. */
	throttled?: (holdMs: number) => void;
	timeoutMs: number;
	redactor: Redactor;
	/** Told every token the endpoint issues, before it is checked: a refused token is still live. */
	issued?: (token: string) => void;
}

/** A credential Test follows no redirect: these rules name the field to correct. */
export function redirectTestRules(field: string): IAuthenticateRuleResponseCode[] {
	return [301, 302, 303, 307, 308].map((status) => ({
		type: 'responseCode' as const,
		properties: {
			value: status,
			message: `The server answered with a redirect (HTTP ${status}). The Test follows no redirect, so the credentials stay with this address: enter the address it redirects to as the ${field}.`,
		},
	}));
}

/** For a credential's Test, whose fields are expressions. */
export function tokenFormExpression(
	expressions: Record<'clientId' | 'clientSecret' | 'scope', string>,
): string {
	const { clientId, clientSecret, scope } = expressions;
	const fields = { scope, client_id: clientId, client_secret: clientSecret };
	const encoded = Object.entries(fields).map(
		([name, value]) => ` + "&${name}=" + encodeURIComponent(${value})`,
	);
	return `"grant_type=client_credentials"${encoded.join('')}`;
}

/** Tokens by client and a hash of what they were issued for: a changed secret never reuses one. */
const tokens = new Map<string, { token: string; expiresAt: number }>();
const inFlight = new Map<string, Promise<string>>();

/** Refreshed a little before the advertised expiry, so a token never dies mid-request. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * The client's token for a credential's preAuthentication, which n8n calls from each request with
 * no token: one fetch in flight per client and `issuedFor` (the secret unless more decides it),
 * the secret and every token masked.
 */
export async function clientToken(
	context: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	key: string,
	endpoint: Omit<TokenEndpoint, 'clientId' | 'clientSecret' | 'redactor' | 'issued'>,
	issuedFor?: string,
): Promise<string> {
	const clientSecret = String(credentials.clientSecret ?? '');
	rememberSecret(key, clientSecret);
	const cacheKey = `${key}\u0000${fingerprint(issuedFor ?? clientSecret)}`;
	const cached = tokens.get(cacheKey);
	const fresh = cached && cached.expiresAt > Date.now();
	if (fresh && cached.token !== credentials.accessToken) return cached.token;
	let pending = inFlight.get(cacheKey);
	if (!pending) {
		const request = requestClientToken(context, {
			...endpoint,
			clientId: String(credentials.clientId ?? '').trim(),
			clientSecret,
			redactor: clientRedactor(key, clientSecret),
			issued: (token) => rememberSecret(key, token),
		});
		pending = request
			.then(({ token, expiresInSec }) => {
				const lifetimeMs = (expiresInSec ?? 3600) * 1000;
				const expiresAt = Date.now() + Math.max(lifetimeMs / 2, lifetimeMs - EXPIRY_MARGIN_MS);
				tokens.set(cacheKey, { token, expiresAt });
				return token;
			})
			.finally(() => inFlight.delete(cacheKey));
		inFlight.set(cacheKey, pending);
	}
	return await pending;
}

/** Follows no redirect (it carries the secret) and never quotes the answer (it holds the token). */
async function requestClientToken(
	context: IHttpRequestHelper,
	endpoint: TokenEndpoint,
): Promise<{ token: string; expiresInSec?: number }> {
	// Masked words only: n8n wraps this error for the request that needed the token, as its cause.
	const fail = (words: string, failure?: DeclaredFailure) =>
		withFailure(new Error(endpoint.redactor.text(words)), failure);
	const couldNot = (words: string, failure?: DeclaredFailure) =>
		fail(`Could not get an access token from ${endpoint.from} (${words})`, failure);
	if (!endpoint.clientId || !endpoint.clientSecret) {
		throw fail('The credential has no client ID or client secret: both are needed for OAuth2', {
			cause: 'credential-invalid',
		});
	}
	if (!originOf(endpoint.url)) {
		throw fail(`The token URL is not an http(s) address: "${endpoint.url}"`, {
			cause: 'configuration-invalid',
		});
	}
	const fields = {
		grant_type: 'client_credentials',
		...(endpoint.scope === undefined ? {} : { scope: endpoint.scope }),
		client_id: endpoint.clientId,
		client_secret: endpoint.clientSecret,
	};
	const inQuery = endpoint.secretIn === 'query';
	let answer: { status: number; contentType: string; text: string };
	// One Timeout for the whole token request, 429 waits included, as for every other request.
	const endsAt = Date.now() + endpoint.timeoutMs;
	for (let attempt = 1; ; attempt++) {
		const remainingMs = Math.max(1, endsAt - Date.now());
		const signal = AbortSignal.timeout(remainingMs);
		const sentAt = Date.now();
		try {
			const response = (await context.helpers.httpRequest({
				method: 'POST',
				url: endpoint.url,
				...(inQuery ? { qs: fields } : { body: new URLSearchParams(fields).toString() }),
				headers: inQuery
					? { Accept: 'application/json' }
					: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
				encoding: 'stream',
				returnFullResponse: true,
				disableFollowRedirect: true,
				timeout: remainingMs,
				abortSignal: signal,
			})) as { body?: unknown; headers?: Record<string, unknown>; statusCode?: number };
			answer = {
				status: Number(response.statusCode ?? 200),
				contentType: String(response.headers?.['content-type'] ?? ''),
				text: (await readBody(response.body, MAX_ERROR_BODY_BYTES, signal)).text,
			};
			break;
		} catch (error) {
			const problem = fromRequestError(error);
			const refused = problem.kind === 'status' && [400, 401, 403].includes(problem.status!);
			const failure: DeclaredFailure | undefined = signal.aborted
				? { cause: 'temporarily-unavailable' }
				: refused
					? { cause: 'credential-invalid' }
					: declaredFailure(problem);
			const wait =
				problem.status === 429 && attempt < endpoint.attempts
					? waitAfterThrottle(problem.details.headers?.['retry-after'], attempt, sentAt)
					: undefined;
			if (wait && 'waitMs' in wait) {
				endpoint.throttled?.(wait.holdMs);
				if (Date.now() + wait.waitMs >= endsAt) {
					throw couldNot(
						`HTTP 429: the token endpoint asked to wait beyond the ${Math.round(endpoint.timeoutMs / 1000)} s Timeout`,
						{ cause: 'temporarily-unavailable' },
					);
				}
				await sleep(wait.waitMs);
				continue;
			}
			if (problem.kind !== 'status' || !problem.status) {
				throw couldNot(signal.aborted ? 'no answer in time' : problem.message, failure);
			}
			const status = problem.status;
			const apiMessage = await errorAnswerMessage(problem);
			const said = apiMessage ? `: ${apiMessage}` : '';
			if (status >= 300 && status < 400) {
				const location = String(problem.details.headers?.location ?? '');
				throw couldNot(
					`HTTP ${status}: the token endpoint redirects${location ? ` to ${location.split('?')[0]}` : ''}; the redirect was not followed, since the request carries the client secret`,
					failure,
				);
			}
			if (endpoint.refused.statuses.includes(status)) {
				throw fail(
					`Could not get an access token: ${endpoint.from} refused the client credentials (HTTP ${status}${said}): check ${endpoint.refused.check}; nothing was sent`,
					failure,
				);
			}
			throw couldNot(`HTTP ${status}${said}`, failure);
		}
	}
	const token = tokenFromAnswer(answer.status, answer.contentType, answer.text, endpoint.issued);
	if ('problem' in token) throw couldNot(token.problem);
	return token;
}

export function tokenFromAnswer(
	status: number,
	contentType: string,
	text: string,
	issued?: (token: string) => void,
): { token: string; expiresInSec?: number } | { problem: string } {
	const type = contentType.split(';')[0].trim() || 'no content type';
	const unexpected = (why: string) => ({
		problem: `unexpected answer (HTTP ${status}, ${type}): ${why}`,
	});
	if (status < 200 || status >= 300) return unexpected('not a token');
	let body: unknown;
	try {
		body = JSON.parse(text) as unknown;
	} catch {
		return unexpected(text.trim() ? 'not JSON' : 'empty body');
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return unexpected('not a JSON object');
	}
	const answer = body as Record<string, unknown>;
	const token = answer.access_token;
	if (typeof token === 'string' && token) issued?.(token);
	if (typeof token !== 'string' || token.trim() === '') {
		return unexpected('access_token is missing or not text');
	}
	if (!isHeaderSafe(token, { spaces: false })) {
		return unexpected(
			'access_token holds characters that cannot be sent in an HTTP header (spaces, line breaks, control or non-ASCII characters)',
		);
	}
	if (answer.token_type !== undefined && String(answer.token_type).toLowerCase() !== 'bearer') {
		return unexpected('token_type is not "bearer"');
	}
	const expiresInSec = answer.expires_in;
	if (
		expiresInSec !== undefined &&
		(typeof expiresInSec !== 'number' || !Number.isFinite(expiresInSec) || expiresInSec <= 0)
	) {
		return unexpected('expires_in is not a positive number of seconds');
	}
	return { token, expiresInSec };
}

async function errorAnswerMessage(problem: HttpProblem): Promise<string> {
	const { text } = await readBody(problem.details.body, MAX_ERROR_BODY_BYTES).catch(() => ({
		text: '',
	}));
	const body = errorBodyOf(text);
	return body !== null && typeof body === 'object' ? (messageFromBody(body) ?? '') : '';
}
