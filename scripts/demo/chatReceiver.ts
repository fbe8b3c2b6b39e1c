import { startLoopback } from '../../harness/loopback';

/** A stand-in for a team chat's incoming webhook: it keeps every JSON message posted to it. */
export interface ChatReceiver {
	url: string;
	messages: Array<Record<string, unknown>>;
	close(): Promise<void>;
}

export const CHAT_PATH = '/hooks/learning-wins';

export async function startChatReceiver(): Promise<ChatReceiver> {
	const messages: Array<Record<string, unknown>> = [];
	const server = await startLoopback((request, response) => {
		if (request.method !== 'POST' || request.url !== CHAT_PATH)
			return void response.writeHead(404).end();
		try {
			messages.push(JSON.parse(request.body) as Record<string, unknown>);
			response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
		} catch {
			response.writeHead(400).end();
		}
	});
	return { url: `${server.url}${CHAT_PATH}`, messages, close: server.close };
}
