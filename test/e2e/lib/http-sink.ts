/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export interface HttpSink {
	/** `http://127.0.0.1:PORT`, no trailing slash. */
	origin: string;
	received: ReceivedRequest[];
	close(): Promise<void>;
}

/** A loopback stand-in for an outside service (a chat webhook): records every request, answers 200. */
export async function startHttpSink(): Promise<HttpSink> {
	const received: ReceivedRequest[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({
				method: request.method ?? '',
				url: request.url ?? '',
				headers: request.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			});
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
