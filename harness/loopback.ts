/* eslint-disable -- harness code, not part of the n8n package: the community-node rules do not apply */
/**
 * Real HTTP servers on 127.0.0.1 for tests, the demo and the benchmarks: listening on a free
 * port, reading request bodies, recording requests, forwarding them, and closing with every
 * open connection destroyed, so a handler that never answers cannot keep a process alive.
 * The stand-ins and proxies (the hostile servers, the record store's recording proxy, the
 * fault proxy, the chat receiver) are thin users of these.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** What a recording server keeps of one request body at most; the rest is read and dropped. */
export const BODY_LIMIT = 1024 * 1024;

export interface LoopbackServer {
	/** `http://127.0.0.1:<port>`, no trailing slash. */
	url: string;
	/** `127.0.0.1:<port>` */
	host: string;
	port: number;
	/** Stops listening and destroys every open connection. */
	close(): Promise<void>;
}

/** Listens on 127.0.0.1 with a port the system picks. */
export async function listenOnLoopback(listener: http.RequestListener): Promise<LoopbackServer> {
	const server = http.createServer(listener);
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		host: `127.0.0.1:${port}`,
		port,
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * Reads a request's (or an answer's) whole body, keeping the first chunks up to `limit` bytes
 * and dropping the rest. Rejects when the stream fails (the client went away mid-body).
 */
export function readBody(message: http.IncomingMessage, limit = BODY_LIMIT): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		message.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
		});
		message.on('end', () => resolve(Buffer.concat(chunks)));
		message.on('error', reject);
	});
}

/**
 * Sends a received request on to `target` (an origin) with its method, path, headers (the
 * `host` header rewritten, `headers` added) and body; resolves with the target's answer, unread.
 */
export function forward(
	request: http.IncomingMessage,
	body: Buffer,
	target: URL,
	headers: http.OutgoingHttpHeaders = {},
): Promise<http.IncomingMessage> {
	return new Promise((resolve, reject) => {
		const upstream = http.request(
			{
				host: target.hostname,
				port: target.port,
				method: request.method,
				path: request.url,
				headers: { ...request.headers, host: target.host, ...headers },
			},
			resolve,
		);
		upstream.on('error', reject);
		upstream.end(body);
	});
}

/** A loopback port that was free a moment ago, for programs that cannot listen on port 0 and report what they got. */
export async function freeLoopbackPort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** One request a recording server received. */
export interface Received {
	method: string;
	/** Path and query, as sent. */
	url: string;
	headers: http.IncomingHttpHeaders;
	/** The body as UTF-8, up to BODY_LIMIT bytes. */
	body: string;
}

export type Handler = (request: Received, response: http.ServerResponse, index: number) => unknown;

export interface Loopback extends LoopbackServer {
	received: Received[];
	/** Replaces the handler. */
	handle(handler: Handler): void;
	/** Resolves when the server has received `count` requests. */
	waitFor(count: number): Promise<void>;
}

/**
 * A loopback server recording every request (its body read first), then handing it to
 * `handler`; a handler that throws or rejects answers 500.
 */
export async function startLoopback(handler: Handler = (_, res) => res.end()): Promise<Loopback> {
	let current = handler;
	const received: Received[] = [];
	const waiters: Array<{ count: number; resolve: () => void }> = [];
	const server = await listenOnLoopback((req, res) => {
		readBody(req).then(
			(body) => {
				const request: Received = {
					method: req.method ?? 'GET',
					url: req.url ?? '/',
					headers: req.headers,
					body: body.toString('utf8'),
				};
				const index = received.push(request) - 1;
				for (const waiter of waiters.filter((w) => received.length >= w.count)) {
					waiters.splice(waiters.indexOf(waiter), 1);
					waiter.resolve();
				}
				let answered: unknown;
				try {
					answered = current(request, res, index);
				} catch (error) {
					answered = Promise.reject(error);
				}
				Promise.resolve(answered).catch((error) => {
					if (!res.headersSent) res.writeHead(500);
					res.end(String(error));
				});
			},
			() => {
				// The client went away before its body was complete: nothing to record or answer.
			},
		);
	});
	return {
		...server,
		received,
		handle(next) {
			current = next;
		},
		waitFor(count) {
			if (received.length >= count) return Promise.resolve();
			return new Promise((resolve) => waiters.push({ count, resolve }));
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
	text(res, status, JSON.stringify(body), 'application/json', headers);
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
