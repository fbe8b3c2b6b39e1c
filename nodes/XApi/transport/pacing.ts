import { clientThrottle } from '../../shared/pacing/clients';
import type { RequestThrottle } from '../../shared/pacing/throttle';
import { WINDOW_MARGIN_MS } from '../../shared/pacing/throttle';
import { DEFAULT_OAUTH2_REQUESTS_PER_MINUTE, lrsClientKey } from './authorization';

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
