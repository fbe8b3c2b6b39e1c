import { createHash } from 'crypto';

import { CompletionEstimate } from './completion';
import { Redactor } from '../request/redact';
import { RequestThrottle } from './throttle';
import { pause } from './waiting';

/**
 * The only state that outlives an execution: one entry per API client, keyed by
 * `<base URL>|<client id>` (the platform throttles per client id, and a client id belongs to
 * one deployment). It holds the client's throttle, its tokens, how long its writes take to
 * complete, and every secret and token issued in this process for it, so that all of them are
 * masked wherever they show up.
 */
interface ClientState {
	readonly throttle: RequestThrottle;
	/** Requests per minute asked for by each credential (by credential id) using this client. */
	readonly rates: Map<string, number>;
	/** Tokens by a hash of the secret they were issued for: a changed secret never reuses one. */
	readonly tokens: Map<string, CachedToken>;
	readonly inFlight: Map<string, Promise<CachedToken>>;
	readonly redactor: Redactor;
	issuedTokens: number;
	/** How long the service takes to carry out this client's writes, as learned so far. */
	readonly completion: CompletionEstimate;
}

interface CachedToken {
	token: string;
	expiresAt: number;
}

const clients = new Map<string, ClientState>();

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

function stateOf(key: string): ClientState {
	let state = clients.get(key);
	if (!state) {
		state = {
			throttle: new RequestThrottle(300),
			rates: new Map(),
			tokens: new Map(),
			inFlight: new Map(),
			redactor: new Redactor(),
			issuedTokens: 0,
			completion: new CompletionEstimate(),
		};
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
	{ retryThrottled = false }: { retryThrottled?: boolean } = {},
): Promise<string> {
	const state = stateOf(key);
	state.redactor.add(clientSecret);
	const secretHash = fingerprint(clientSecret);
	const cached = state.tokens.get(secretHash);
	if (cached && cached.expiresAt > Date.now() && cached.token !== staleToken) return cached.token;
	let pending = state.inFlight.get(secretHash);
	if (!pending) {
		pending = (retryThrottled ? retriedWhenThrottled(state.throttle, fetchToken) : fetchToken())
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

/** A token failure that was a 429 carries the pause the service asked for. */
export interface TokenFailure extends Error {
	throttledForMs?: number;
}

/** Token requests refused with 429 tried at most this many times (as any other request). */
const MAX_TOKEN_ATTEMPTS = 12;

/**
 * A token request refused with 429 (another process spending the client's budget) pauses the
 * client for its Retry-After and is tried again rather than failing the execution. It takes no
 * slot of its own: the items waiting for the token hold theirs, and would be let go at once
 * behind a token request that queued behind them.
 */
async function retriedWhenThrottled<T>(
	throttle: RequestThrottle,
	fetchToken: () => Promise<T>,
): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		const outcome = await fetchToken().then(
			(value) => ({ value }),
			(error: unknown) => ({ error }),
		);
		if ('value' in outcome) return outcome.value;
		const waitMs = (outcome.error as TokenFailure | undefined)?.throttledForMs;
		if (waitMs === undefined || attempt >= MAX_TOKEN_ATTEMPTS) {
			return await Promise.reject(outcome.error);
		}
		throttle.throttled(waitMs);
		await pause(waitMs);
	}
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

export interface ClientThrottle {
	throttle: RequestThrottle;
	/** The rate in force: the lowest any credential of this client asked for. */
	requestsPerMinute: number;
}

/**
 * The client's throttle, at the lowest rate any credential using this client id asked for:
 * two credentials with one client id share the platform's budget, so the stricter one wins.
 */
export function clientThrottle(
	key: string,
	credentialId: string,
	requestsPerMinute: number,
): ClientThrottle {
	const state = stateOf(key);
	state.rates.set(credentialId, requestsPerMinute);
	const lowest = Math.min(...state.rates.values());
	state.throttle.setRate(lowest);
	return { throttle: state.throttle, requestsPerMinute: lowest };
}

/** When to check this client's writes first: learned from its earlier writes in this process. */
export function clientCompletion(key: string): CompletionEstimate {
	return stateOf(key).completion;
}
