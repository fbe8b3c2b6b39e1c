/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * A loopback reverse proxy that injects the failures a record store (or the gateway in front of
 * it) produces: 429 with and without Retry-After, 500/502/503, connections dropped before or
 * after the request reached the store, and 401 for an expired token. Which request gets which
 * fault is decided by a seeded random number, so a run can be repeated.
 */
import type http from 'node:http';

import { forward, listenOnLoopback, readBody } from '../../harness/loopback';
import { createRandom, type Random } from '../../sandbox/random';

export type ProxyFault =
	| 'throttle-429-retry-after'
	| 'throttle-429'
	| 'server-500'
	| 'server-502'
	| 'server-503'
	/** Closed before forwarding: the store never saw the request. */
	| 'drop-before-forward'
	/** Forwarded and answered by the store, then closed unanswered: the client cannot tell. */
	| 'drop-after-forward'
	| 'expire-token';

/** Relative weights of the fault kinds among faulted requests. */
export type FaultMix = Record<ProxyFault, number>;

export const EVEN_FAULT_MIX: FaultMix = {
	'throttle-429-retry-after': 1,
	'throttle-429': 1,
	'server-500': 1,
	'server-502': 1,
	'server-503': 1,
	'drop-before-forward': 1,
	'drop-after-forward': 1,
	'expire-token': 1,
};

export interface ProxiedRequest {
	seq: number;
	method: string;
	url: string;
	fault: ProxyFault | null;
	/** What the client got; null when the connection was dropped. */
	status: number | null;
	/** The store's own status when the request reached it. */
	upstreamStatus: number | null;
}

export interface FaultProxyOptions {
	/** The origin to forward to, e.g. http://127.0.0.1:1234 (loopback only). */
	target: string;
	/** The share of requests that get a fault (0..1). */
	faultRate: number;
	mix?: FaultMix;
	seed?: number;
}

export interface FaultProxy {
	/** http://127.0.0.1:PORT */
	origin: string;
	readonly log: ProxiedRequest[];
	setFaultRate(rate: number): void;
	faultCounts(): Record<string, number>;
	close(): Promise<void>;
}

function pickFault(random: Random, rate: number, mix: FaultMix): ProxyFault | null {
	if (random() >= rate) return null;
	const entries = Object.entries(mix) as Array<[ProxyFault, number]>;
	const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
	let roll = random() * total;
	for (const [fault, weight] of entries) {
		roll -= weight;
		if (roll < 0) return fault;
	}
	return entries[entries.length - 1][0];
}

const GATEWAY_TITLES: Record<number, string> = {
	502: 'Bad Gateway',
	503: 'Service Temporarily Unavailable',
};

function answerFault(fault: ProxyFault, response: http.ServerResponse): number {
	const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
		response
			.writeHead(status, { 'content-type': 'application/json', ...headers })
			.end(JSON.stringify(body));
		return status;
	};
	switch (fault) {
		case 'throttle-429-retry-after':
			return json(429, { message: 'Too many requests' }, { 'retry-after': '1' });
		case 'throttle-429':
			return json(429, { message: 'Too many requests' });
		case 'server-500':
			return json(500, { message: 'Internal Server Error' });
		case 'server-502':
		case 'server-503': {
			const status = fault === 'server-502' ? 502 : 503;
			const title = `${status} ${GATEWAY_TITLES[status]}`;
			response
				.writeHead(status, { 'content-type': 'text/html' })
				.end(`<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`);
			return status;
		}
		case 'expire-token':
			return json(401, { message: 'Expired token' });
		default:
			throw new Error(`${fault} is not answered`);
	}
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
	const target = new URL(options.target);
	if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost')
		throw new Error('The fault proxy forwards to loopback only');
	const random = createRandom(options.seed ?? 1);
	const mix = options.mix ?? EVEN_FAULT_MIX;
	let faultRate = options.faultRate;
	const log: ProxiedRequest[] = [];

	/** Forwards the request; resolves with the store's status and answer. */
	const forwardAll = async (request: http.IncomingMessage, body: Buffer) => {
		const answer = await forward(request, body, target, { connection: 'close' });
		return {
			status: answer.statusCode ?? 0,
			headers: answer.headers,
			body: await readBody(answer, Infinity),
		};
	};

	const server = await listenOnLoopback((request, response) => {
		// A proxy forwards the whole body.
		readBody(request, Infinity).then(
			(requestBody) => {
				const entry: ProxiedRequest = {
					seq: log.length + 1,
					method: request.method ?? '',
					url: request.url ?? '',
					fault: pickFault(random, faultRate, mix),
					status: null,
					upstreamStatus: null,
				};
				log.push(entry);
				if (entry.fault === 'drop-before-forward') {
					request.socket.destroy();
					return;
				}
				if (entry.fault && entry.fault !== 'drop-after-forward') {
					entry.status = answerFault(entry.fault, response);
					return;
				}
				forwardAll(request, requestBody).then(
					(answer) => {
						entry.upstreamStatus = answer.status;
						if (entry.fault === 'drop-after-forward') {
							request.socket.destroy();
							return;
						}
						const headers = { ...answer.headers };
						delete headers['transfer-encoding'];
						delete headers.connection;
						headers['content-length'] = String(answer.body.length);
						response.writeHead(answer.status, headers).end(answer.body);
						entry.status = answer.status;
					},
					(error: Error) => {
						response
							.writeHead(502, { 'content-type': 'text/plain' })
							.end(`Proxy could not reach the store: ${error.message}`);
						entry.status = 502;
					},
				);
			},
			() => {
				// The client went away mid-body: nothing to forward.
			},
		);
	});
	return {
		origin: server.url,
		log,
		setFaultRate: (rate) => {
			faultRate = rate;
		},
		faultCounts: () => {
			const counts: Record<string, number> = {};
			for (const entry of log)
				if (entry.fault) counts[entry.fault] = (counts[entry.fault] ?? 0) + 1;
			return counts;
		},
		close: server.close,
	};
}
