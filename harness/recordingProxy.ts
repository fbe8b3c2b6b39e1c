/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import type * as http from 'node:http';

import { forward, listenOnLoopback, readBody } from './loopback';

/** One request as it reached the proxy. */
export interface RecordedRequest {
	method: string;
	/** Path and query, e.g. `/xAPI/statements?limit=1`. */
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	/** The status the client got. */
	status: number;
}

export interface RecordingProxy {
	/** `http://127.0.0.1:PORT`, no trailing slash. */
	origin: string;
	requests: RecordedRequest[];
	close(): Promise<void>;
}

export interface RecordingProxyOptions {
	targetPort: number;
	/**
	 * When set, any request whose `Authorization` differs gets 401 without
	 * reaching the target: the record store under test accepts nearly any value.
	 */
	requiredAuthorization?: string;
}

/**
 * A loopback reverse proxy that records every request and forwards it
 * unchanged, so tests can assert what a node really sent (headers included).
 */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
	const target = new URL(`http://127.0.0.1:${options.targetPort}`);
	const requests: RecordedRequest[] = [];
	const server = await listenOnLoopback((request, response) => {
		// A proxy forwards the whole body.
		readBody(request, Infinity).then(
			(body) => {
				const record: RecordedRequest = {
					method: request.method ?? '',
					url: request.url ?? '',
					headers: request.headers,
					body: body.toString('utf8'),
					status: 0,
				};
				requests.push(record);
				if (
					options.requiredAuthorization !== undefined &&
					request.headers.authorization !== options.requiredAuthorization
				) {
					record.status = 401;
					response.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
					return;
				}
				forward(request, body, target).then(
					(upstreamResponse) => {
						record.status = upstreamResponse.statusCode ?? 0;
						response.writeHead(record.status, upstreamResponse.headers);
						upstreamResponse.pipe(response);
					},
					(error) => {
						record.status = 502;
						response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
					},
				);
			},
			() => {
				// The client went away mid-body: nothing to forward.
			},
		);
	});
	return { origin: server.url, requests, close: server.close };
}
