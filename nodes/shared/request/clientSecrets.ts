import { createHash } from 'crypto';

import { Redactor } from './redact';

/**
 * What outlives an execution besides the throttle (`pacing/clients.ts`), under the same client
 * key: the client's tokens and every secret and token issued in this process for it, so that
 * all of them are masked wherever they show up.
 */
interface ClientSecrets {
	/** Tokens by a hash of the secret they were issued for: a changed secret never reuses one. */
	readonly tokens: Map<string, CachedToken>;
	readonly inFlight: Map<string, Promise<CachedToken>>;
	readonly redactor: Redactor;
	issuedTokens: number;
}

interface CachedToken {
	token: string;
	expiresAt: number;
}

const clients = new Map<string, ClientSecrets>();

/** Bounds the masks a long-running process keeps: tokens this old are long expired. */
const MAX_REMEMBERED_TOKENS = 1_000;

// Refresh a little before the advertised expiry so a token never dies mid-request.
const EXPIRY_MARGIN_MS = 30_000;

/**
 * The one key of a client, normalised: the id as the token request sends it (outer spaces
 * dropped), so tokens, masks and throttle all belong to the same entry however it was typed.
 */
export function clientKey(baseUrl: string, clientId: string): string {
	return `${baseUrl.trim()}|${clientId.trim()}`;
}

function stateOf(key: string): ClientSecrets {
	let state = clients.get(key);
	if (!state) {
		state = { tokens: new Map(), inFlight: new Map(), redactor: new Redactor(), issuedTokens: 0 };
		clients.set(key, state);
	}
	return state;
}

/** A short fingerprint of the values a token was issued for. */
export function fingerprint(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/**
 * One token fetch in flight per client and secret, its result shared with everyone who asks
 * meanwhile (n8n calls preAuthentication from every request that finds the token empty).
 */
export async function sharedToken(
	key: string,
	clientSecret: string,
	staleToken: string | undefined,
	fetchToken: () => Promise<{ token: string; expiresInSec?: number }>,
): Promise<string> {
	const state = stateOf(key);
	state.redactor.add(clientSecret);
	const secretHash = fingerprint(clientSecret);
	const cached = state.tokens.get(secretHash);
	if (cached && cached.expiresAt > Date.now() && cached.token !== staleToken) return cached.token;
	let pending = state.inFlight.get(secretHash);
	if (!pending) {
		pending = fetchToken()
			.then(({ token, expiresInSec }) => {
				rememberSecret(key, token);
				const lifetimeMs = (expiresInSec ?? 3600) * 1000;
				const entry = {
					token,
					expiresAt: Date.now() + Math.max(lifetimeMs / 2, lifetimeMs - EXPIRY_MARGIN_MS),
				};
				state.tokens.set(secretHash, entry);
				return entry;
			})
			.finally(() => state.inFlight.delete(secretHash));
		state.inFlight.set(secretHash, pending);
	}
	return (await pending).token;
}

/** Adds a value to the client's masks (a token issued for it, a secret it was used with). */
export function rememberSecret(key: string, value: string): void {
	const state = stateOf(key);
	if (state.issuedTokens++ >= MAX_REMEMBERED_TOKENS) {
		state.redactor.forgetAll();
		state.issuedTokens = 0;
	}
	state.redactor.add(value);
}

/** Everything to mask for this client: every secret and token seen for it in this process. */
export function clientRedactor(key: string, ...current: unknown[]): Redactor {
	return stateOf(key)
		.redactor.copy()
		.add(...current);
}

/**
 * The client's own live masks, with the given values (the credential's secret and stored token)
 * added: for masking every output item, so it is not copied and its pattern is built once,
 * again only when a new token is issued.
 */
export function liveClientRedactor(key: string, ...current: unknown[]): Redactor {
	return stateOf(key).redactor.add(...current);
}

