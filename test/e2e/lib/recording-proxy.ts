/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

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
	const requests: RecordedRequest[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = Buffer.concat(chunks);
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
			const upstream = http.request(
				{
					host: '127.0.0.1',
					port: options.targetPort,
					method: request.method,
					path: request.url,
					headers: { ...request.headers, host: `127.0.0.1:${options.targetPort}` },
				},
				(upstreamResponse) => {
					record.status = upstreamResponse.statusCode ?? 0;
					response.writeHead(record.status, upstreamResponse.headers);
					upstreamResponse.pipe(response);
				},
			);
			upstream.on('error', (error) => {
				record.status = 502;
				response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
			});
			upstream.end(body);
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
