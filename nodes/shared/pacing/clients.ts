import { CompletionEstimate } from './completion';
import { RequestThrottle } from './throttle';

/**
 * The throttle's state that outlives an execution: one entry per API client, keyed by
 * `clientKey` (`request/clientSecrets.ts`, which keeps the client's tokens and masks under the
 * same key; the platform throttles per client id, and a client id belongs to one deployment).
 * It holds the client's throttle and how long its writes take to complete.
 */
interface ClientState {
	readonly throttle: RequestThrottle;
	/** Requests per minute asked for by each credential (by credential id) using this client. */
	readonly rates: Map<string, number>;
	/** How long the service takes to carry out this client's writes, as learned so far. */
	readonly completion: CompletionEstimate;
}

const clients = new Map<string, ClientState>();

function stateOf(key: string): ClientState {
	let state = clients.get(key);
	if (!state) {
		state = { throttle: new RequestThrottle(300), rates: new Map(), completion: new CompletionEstimate() };
		clients.set(key, state);
	}
	return state;
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

/** Holds every request of the client back for a wait its service asked for (a token request's 429). */
export function clientThrottled(key: string, waitMs: number): void {
	stateOf(key).throttle.throttled(waitMs);
}
