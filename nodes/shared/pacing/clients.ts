import { RequestThrottle } from './throttle';

/** Per API client (`clientKey`) for the whole process: the platform throttles per client id. */
interface ClientState {
	readonly throttle: RequestThrottle;
	readonly rates: Map<string, number>;
	readonly completion: CompletionEstimate;
}

const clients = new Map<string, ClientState>();

function stateOf(key: string): ClientState {
	const state = clients.get(key) ?? {
		throttle: new RequestThrottle(300),
		rates: new Map<string, number>(),
		completion: new CompletionEstimate(),
	};
	clients.set(key, state);
	return state;
}

/** Two credentials with one client id share the platform's budget, so the lowest rate wins. */
export function clientThrottle(
	key: string,
	credentialId: string,
	requestsPerMinute: number,
): { throttle: RequestThrottle; requestsPerMinute: number } {
	const state = stateOf(key);
	state.rates.set(credentialId, requestsPerMinute);
	const lowest = Math.min(...state.rates.values());
	state.throttle.setRate(lowest);
	return { throttle: state.throttle, requestsPerMinute: lowest };
}

export function clientCompletion(key: string): CompletionEstimate {
	return stateOf(key).completion;
}

const MIN_FIRST_CHECK_MS = 500;
const MAX_FIRST_CHECK_MS = 30_000;

const GROWTH_ON_MISS = 2;

const SHRINK_ON_HIT = 0.99;

const ABOVE_SEEN_RUNNING = 1.25;

/** The longest seen running is forgotten slowly (per job found done), so misses stay rare. */
const FORGET_SEEN_RUNNING = 0.999;

/** A late check costs one item's latency, not the run's throughput: waiting holds no place. */
export class CompletionEstimate {
	private firstCheckMs: number;

	private seenRunningMs = 0;

	constructor(initialMs = 1_000) {
		this.firstCheckMs = clamp(initialMs);
	}

	firstCheckDelayMs(): number {
		return this.firstCheckMs;
	}

	observeFirstCheck(elapsedMs: number, done: boolean): void {
		if (done) {
			this.seenRunningMs *= FORGET_SEEN_RUNNING;
			this.firstCheckMs = clamp(
				Math.max(this.firstCheckMs * SHRINK_ON_HIT, this.seenRunningMs * ABOVE_SEEN_RUNNING),
			);
			return;
		}
		this.seenRunningMs = Math.max(this.seenRunningMs, elapsedMs);
		// From the elapsed time: items accepted together miss together, and count as one miss.
		this.firstCheckMs = clamp(Math.max(this.firstCheckMs, elapsedMs * GROWTH_ON_MISS));
	}
}

function clamp(ms: number): number {
	return Math.min(MAX_FIRST_CHECK_MS, Math.max(MIN_FIRST_CHECK_MS, ms));
}
