import { createHash } from 'crypto';
import type {
	IAuthenticateRuleResponseCode,
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
import { openedThrottle } from '../pacing/throttle';
import { Deadline, type Throttle } from '../pacing/time';
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
	/** The client's pace, when a run opened one: each attempt takes its turn, a 429 holds it back. */
	throttle?: Throttle;
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

/** A token this process holds: live until `expiresAt`, or until a request came back 401 with it. */
export interface HeldToken {
	readonly token: string;
	/** Set to 0 once refused (`refuseToken`): whoever still holds it sees it is dead. */
	expiresAt: number;
}

/** Tokens by client and a hash of what they were issued for: a changed secret never reuses one. */
const tokens = new Map<string, HeldToken>();
const inFlight = new Map<string, Promise<HeldToken>>();

/** Renewed a little before the advertised expiry, so a token never dies mid-request. */
const EXPIRY_MARGIN_MS = 30_000;

/** A client's token request: the credential, its client key and its endpoint. */
export interface TokenSource {
	credentials: Readonly<Record<string, unknown>>;
	key: string;
	endpoint: Omit<TokenEndpoint, 'clientId' | 'clientSecret' | 'redactor' | 'issued'>;
	/** What decides a token's validity (the secret unless more does, e.g. scope and token URL). */
	issuedFor?: string;
	/** The token n8n saved, if it was issued for these values, and when it is to be renewed. */
	saved: { token?: string; expiresAt?: unknown };
}

/** What n8n saved, when its fingerprint says it was issued for the credential's present values. */
export function savedToken(
	credentials: Readonly<Record<string, unknown>>,
	issuedFor: string,
): TokenSource['saved'] {
	const token = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	const current = token !== '' && credentials.accessTokenFor === issuedFor;
	return current ? { token, expiresAt: credentials.accessTokenExpiresAt } : {};
}

function cacheKeyOf({ credentials, key, issuedFor }: TokenSource): string {
	return `${key}\u0000${fingerprint(issuedFor ?? String(credentials.clientSecret ?? ''))}`;
}

function liveIn(cacheKey: string): HeldToken | undefined {
	const held = tokens.get(cacheKey);
	return held && held.expiresAt > Date.now() ? held : undefined;
}

/** One fetch in flight per client and `issuedFor`, the secret and every token masked. */
function fetchToken(context: IHttpRequestHelper, source: TokenSource): Promise<HeldToken> {
	const { credentials, key } = source;
	const clientSecret = String(credentials.clientSecret ?? '');
	rememberSecret(key, clientSecret);
	const cacheKey = cacheKeyOf(source);
	let pending = inFlight.get(cacheKey);
	if (!pending) {
		const request = requestClientToken(context, {
			...source.endpoint,
			clientId: String(credentials.clientId ?? '').trim(),
			clientSecret,
			redactor: clientRedactor(key, clientSecret),
			issued: (token) => rememberSecret(key, token),
			throttle: openedThrottle(key),
		});
		pending = request
			.then(({ token, expiresInSec }) => {
				const lifetimeMs = (expiresInSec ?? 3600) * 1000;
				const expiresAt = Date.now() + Math.max(lifetimeMs / 2, lifetimeMs - EXPIRY_MARGIN_MS);
				const held = { token, expiresAt };
				tokens.set(cacheKey, held);
				return held;
			})
			.finally(() => inFlight.delete(cacheKey));
		inFlight.set(cacheKey, pending);
	}
	return pending;
}

/**
 * For a credential's preAuthentication, which n8n calls when the saved token is empty, and after
 * a 401 its helper saw (a request of another node): what n8n saves, expiry included.
 */
export async function clientToken(
	context: IHttpRequestHelper,
	source: TokenSource,
): Promise<{ accessToken: string; accessTokenExpiresAt: number }> {
	rememberSecret(source.key, String(source.credentials.clientSecret ?? ''));
	const live = liveIn(cacheKeyOf(source));
	const held =
		live && live.token !== source.credentials.accessToken
			? live
			: await fetchToken(context, source);
	return { accessToken: held.token, accessTokenExpiresAt: held.expiresAt };
}

/**
 * For the nodes' own requests, before they take their turn: the token this process holds, else
 * the saved one while the expiry saved with it is ahead and no request came back 401 with it,
 * else a new one (the token request first, then the writes).
 */
export async function liveToken(
	context: IHttpRequestHelper,
	source: TokenSource,
): Promise<HeldToken> {
	const cacheKey = cacheKeyOf(source);
	const live = liveIn(cacheKey);
	if (live) return live;
	const { token, expiresAt } = source.saved;
	// Only a saved token nobody here has tried: one this process held and lost is not taken back.
	if (token && !tokens.has(cacheKey) && Number(expiresAt) > Date.now()) {
		const held = { token, expiresAt: Number(expiresAt) };
		tokens.set(cacheKey, held);
		return held;
	}
	return await fetchToken(context, source);
}

/** What a request asks before its turn (`callApi`): a live token, and after its turn the one held. */
export interface TokenGate {
	live(): Promise<HeldToken>;
	held(): HeldToken | undefined;
}

/** Asks for the token at once: the first request finds it (or its failure, asked again once). */
export function tokenGate(context: IHttpRequestHelper, source: TokenSource): TokenGate {
	liveToken(context, source).catch(() => undefined);
	return { live: () => liveToken(context, source), held: () => heldToken(source) };
}

export function isLive(held: HeldToken): boolean {
	return held.expiresAt > Date.now();
}

/** The live token this process holds for the client and values, if any: no waiting. */
export function heldToken(source: TokenSource): HeldToken | undefined {
	return liveIn(cacheKeyOf(source));
}

/** A request came back 401 with it: no request leaves with it again. */
export function refuseToken(held: HeldToken): void {
	held.expiresAt = 0;
}

/** What `authenticate` sends: the live token this process holds for these values, else the saved one. */
export function tokenToSend(source: TokenSource): string | undefined {
	return heldToken(source)?.token ?? source.saved.token;
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
		// The platform counts the token request too (and the sandbox does): it goes at the pace.
		if (await endpoint.throttle?.acquire(new Deadline(remainingMs))) {
			throw couldNot("the client's pace left it no turn within the Timeout", {
				cause: 'temporarily-unavailable',
			});
		}
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
				endpoint.throttle?.throttled(wait.holdMs);
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
