import { CompletionEstimate } from './completion';
import { RequestThrottle } from './throttle';

/** Per API client (`clientKey`) for the whole process: the platform throttles per client id. */
interface ClientState {
	readonly throttle: RequestThrottle;
	readonly rates: Map<string, number>;
	readonly completion: CompletionEstimate;
}

const clients = new Map<string, ClientState>();

function stateOf(key: string): ClientState {
	let state = clients.get(key);
	if (!state) {
		state = {
			throttle: new RequestThrottle(300),
			rates: new Map(),
			completion: new CompletionEstimate(),
		};
		clients.set(key, state);
	}
	return state;
}

export interface ClientThrottle {
	throttle: RequestThrottle;
	requestsPerMinute: number;
}

/** Two credentials with one client id share the platform's budget, so the lowest rate wins. */
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

export function clientCompletion(key: string): CompletionEstimate {
	return stateOf(key).completion;
}
