import { createHash } from 'crypto';

import { Redactor } from './redact';

/** Per client key for the process, so every secret and token issued for it is masked anywhere. */
interface ClientSecrets {
	/** Tokens by a hash of the secret they were issued for: a changed secret never reuses one. */
	readonly tokens: Map<string, CachedToken>;
	readonly inFlight: Map<string, Promise<CachedToken>>;
	readonly redactor: Redactor;
	issuedTokens: number;
	/** The client's throttle, set by the transport: a token request's 429 holds it back. */
	holdBack?: (waitMs: number) => void;
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

/** The id as the token request sends it (trimmed): tokens, masks and throttle share one entry. */
export function clientKey(baseUrl: string, clientId: string): string {
	return `${baseUrl.trim()}|${clientId.trim()}`;
}

export function setClientHoldBack(key: string, holdBack: (waitMs: number) => void): void {
	stateOf(key).holdBack = holdBack;
}

export function holdClientBack(key: string, waitMs: number): void {
	stateOf(key).holdBack?.(waitMs);
}

function stateOf(key: string): ClientSecrets {
	let state = clients.get(key);
	if (!state) {
		state = { tokens: new Map(), inFlight: new Map(), redactor: new Redactor(), issuedTokens: 0 };
		clients.set(key, state);
	}
	return state;
}

export function fingerprint(...parts: string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/** One fetch per client and secret: n8n calls preAuthentication from each request with no token. */
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

export function rememberSecret(key: string, value: string): void {
	const state = stateOf(key);
	if (state.issuedTokens++ >= MAX_REMEMBERED_TOKENS) {
		state.redactor.forgetAll();
		state.issuedTokens = 0;
	}
	state.redactor.add(value);
}

export function clientRedactor(key: string, ...current: unknown[]): Redactor {
	return stateOf(key)
		.redactor.copy()
		.add(...current);
}

/** Not copied, for masking output items: its pattern is rebuilt only when a token is issued. */
export function liveClientRedactor(key: string, ...current: unknown[]): Redactor {
	return stateOf(key).redactor.add(...current);
}
