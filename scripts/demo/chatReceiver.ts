/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stand-in for a team chat's incoming webhook: it keeps every JSON message posted to it. */
export interface ChatReceiver {
	url: string;
	messages: Array<Record<string, unknown>>;
	close(): Promise<void>;
}

export const CHAT_PATH = '/hooks/learning-wins';

export async function startChatReceiver(): Promise<ChatReceiver> {
	const messages: Array<Record<string, unknown>> = [];
	const server = createServer((request, response) => {
		let body = '';
		request.setEncoding('utf8');
		request.on('data', (chunk: string) => (body += chunk));
		request.on('end', () => {
			if (request.method !== 'POST' || request.url !== CHAT_PATH) {
				response.writeHead(404).end();
				return;
			}
			try {
				messages.push(JSON.parse(body) as Record<string, unknown>);
				response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
			} catch {
				response.writeHead(400).end();
			}
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${CHAT_PATH}`,
		messages,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
