/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request a loopback server received. */
export interface Received {
	method: string;
	/** Path and query, as sent. */
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export type Handler = (request: Received, response: http.ServerResponse, index: number) => unknown;

export interface Loopback {
	/** `http://127.0.0.1:<port>` */
	url: string;
	/** `127.0.0.1:<port>` */
	host: string;
	received: Received[];
	/** Replaces the handler. */
	handle(handler: Handler): void;
	/** Resolves when the server has received `count` requests. */
	waitFor(count: number): Promise<void>;
	close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * A real HTTP server on 127.0.0.1 with a random port, recording every request. Closing it
 * destroys open connections too, so a handler that never answers cannot keep a test alive.
 */
export async function startLoopback(handler: Handler = (_, res) => res.end()): Promise<Loopback> {
	let current = handler;
	const received: Received[] = [];
	const sockets = new Set<Socket>();
	const waiters: Array<{ count: number; resolve: () => void }> = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= BODY_LIMIT) chunks.push(chunk);
		});
		req.on('end', () => {
			const request: Received = {
				method: req.method ?? 'GET',
				url: req.url ?? '/',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			const index = received.push(request) - 1;
			for (const waiter of waiters.filter((w) => received.length >= w.count)) {
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve();
			}
			Promise.resolve(current(request, res, index)).catch((error) => {
				if (!res.headersSent) res.writeHead(500);
				res.end(String(error));
			});
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		host: `127.0.0.1:${port}`,
		received,
		handle(next) {
			current = next;
		},
		waitFor(count) {
			if (received.length >= count) return Promise.resolve();
			return new Promise((resolve) => waiters.push({ count, resolve }));
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Answers JSON with a status and optional headers. */
export function json(
	res: http.ServerResponse,
	status: number,
	body: unknown,
	headers: http.OutgoingHttpHeaders = {},
): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(text);
}

/** Answers text of any type. */
export function text(
	res: http.ServerResponse,
	status: number,
	body: string,
	contentType = 'text/plain',
	headers: http.OutgoingHttpHeaders = {},
): void {
	res.writeHead(status, { 'content-type': contentType, ...headers });
	res.end(body);
}
