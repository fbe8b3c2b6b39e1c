import { clientThrottle } from '../../shared/pacing/clients';
import { clientKey, fingerprint } from '../../shared/request/clientSecrets';
import type { RequestThrottle } from '../../shared/pacing/throttle';
import { WINDOW_MARGIN_MS } from '../../shared/pacing/throttle';
import { normalizedEndpoint } from './authorization';

/**
 * Client-side pacing of a record store. The platform's push endpoint allows 10 requests per
 * 10 seconds per organization (platform-docs 002): for `oauth2` the credential's Requests per
 * Minute defaults to that budget, 60. Token and Basic have no documented limit: no pacing
 * unless the credential sets a rate (429s are waited out either way).
 */
export const DEFAULT_OAUTH2_REQUESTS_PER_MINUTE = 60;

/** The platform counts its budget over this window. */
export const PUSH_WINDOW_MS = 10_000;

/**
 * The rate the shared throttle paces at for a budget given per minute but counted over
 * PUSH_WINDOW_MS: low enough that any PUSH_WINDOW_MS holds the window's share of it even when
 * a request arrives WINDOW_MARGIN_MS early against the one ten places before it (timers fire
 * late, answers take varying time). The shared throttle spaces requests evenly and never
 * bursts, so spacing alone keeps every window within budget. At the default: 58 a minute,
 * one request every 1.034 s.
 */
export function pacedRate(requestsPerMinute: number): number {
	const perWindow = (requestsPerMinute * PUSH_WINDOW_MS) / 60_000;
	const spacingMs = (PUSH_WINDOW_MS + WINDOW_MARGIN_MS) / perWindow;
	return Math.max(1, Math.floor(60_000 / spacingMs));
}

export interface LrsPacing {
	throttle: RequestThrottle;
	/** The rate asked for (per minute), as the credential gives it or by default. */
	requestsPerMinute: number;
}

/**
 * The process-wide throttle of this record store and credential, or undefined when it is not
 * paced. Keyed by the endpoint and the credential's identity (client ID, username, or a hash of
 * the token), so every execution in the process that uses them shares it, whichever n8n
 * credential holds them.
 */
export function lrsPacing(
	credentials: {
		endpoint?: unknown;
		authentication?: unknown;
		requestsPerMinute?: unknown;
		clientId?: unknown;
		username?: unknown;
		token?: unknown;
	},
	credentialId: string,
): LrsPacing | undefined {
	const asked = Number(credentials.requestsPerMinute);
	const oauth2 = credentials.authentication === 'oauth2';
	const requestsPerMinute =
		Number.isFinite(asked) && asked > 0 ? asked : oauth2 ? DEFAULT_OAUTH2_REQUESTS_PER_MINUTE : 0;
	if (requestsPerMinute <= 0) return undefined;
	const shared = clientThrottle(
		lrsClientKey(credentials),
		credentialId,
		oauth2 ? pacedRate(requestsPerMinute) : requestsPerMinute,
	);
	return { throttle: shared.throttle, requestsPerMinute };
}

/** The process-wide client of a record store credential (see shared/clients.ts). */
export function lrsClientKey(credentials: {
	endpoint?: unknown;
	authentication?: unknown;
	clientId?: unknown;
	username?: unknown;
	token?: unknown;
}): string {
	const endpoint = `xapi:${normalizedEndpoint(credentials.endpoint)}`;
	switch (credentials.authentication) {
		case 'oauth2':
			return clientKey(endpoint, String(credentials.clientId ?? '').trim());
		case 'basic':
			return clientKey(endpoint, `basic:${String(credentials.username ?? '')}`);
		default:
			return clientKey(endpoint, `token:${fingerprint(String(credentials.token ?? '').trim())}`);
	}
}
