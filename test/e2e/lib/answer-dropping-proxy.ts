/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AnswerDroppingProxy {
	/** `http://127.0.0.1:PORT`, no trailing slash. */
	origin: string;
	/** How many answers it has dropped so far. */
	dropped(): number;
	close(): Promise<void>;
}

export interface AnswerDroppingProxyOptions {
	/** Where requests go, e.g. a recording proxy's origin. */
	target: string;
	/** Which requests lose their answer: decided per request, in arrival order. */
	shouldDrop(request: { method: string; url: string }, index: number): boolean;
}

/**
 * A loopback proxy that forwards every request and, for the chosen ones,
 * closes the client's connection once the target HAS answered, without passing
 * the answer on: the write happened, but the client cannot know it. This is
 * the case a client that repeats requests must not turn into a duplicate.
 */
export async function startAnswerDroppingProxy(
	options: AnswerDroppingProxyOptions,
): Promise<AnswerDroppingProxy> {
	const target = new URL(options.target);
	let seen = 0;
	let dropped = 0;
	const server = http.createServer((request, response) => {
		const index = seen++;
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const drop = options.shouldDrop({ method: request.method ?? '', url: request.url ?? '' }, index);
			const upstream = http.request(
				{
					host: target.hostname,
					port: target.port,
					method: request.method,
					path: request.url,
					headers: { ...request.headers, host: target.host },
				},
				(upstreamResponse) => {
					if (drop) {
						// Read the whole answer first, so the target has surely finished.
						upstreamResponse.resume();
						upstreamResponse.on('end', () => {
							dropped++;
							request.socket.destroy();
						});
						return;
					}
					response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
					upstreamResponse.pipe(response);
				},
			);
			upstream.on('error', (error) => {
				response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
			});
			upstream.end(Buffer.concat(chunks));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		dropped: () => dropped,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
