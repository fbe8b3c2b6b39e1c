/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/** What a handler answers; the server writes it (or, for a dropped request, does not). */

import type { IncomingMessage, ServerResponse } from 'http';

export interface Reply {
	status: number;
	/** Serialised as JSON unless `text` is given. */
	json?: unknown;
	text?: string;
	contentType?: string;
	headers?: Record<string, string>;
}

export function jsonReply(status: number, json: unknown, headers?: Record<string, string>): Reply {
	return { status, json, headers };
}

export function messageReply(status: number, message: string): Reply {
	return jsonReply(status, { message });
}

export function writeReply(res: ServerResponse, reply: Reply): void {
	const body = reply.text ?? JSON.stringify(reply.json ?? null);
	res.writeHead(reply.status, {
		'Content-Type': reply.contentType ?? 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(body),
		...reply.headers,
	});
	res.end(body);
}

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {}

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new BodyTooLargeError(`body larger than ${MAX_BODY_BYTES} bytes`));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; reply: Reply };

/** API bodies must be declared and be valid JSON, as the real platform requires. */
export function parseJsonBody(raw: string, contentType: string | undefined): JsonBody {
	if (mediaType(contentType) !== 'application/json') {
		return { ok: false, reply: messageReply(415, 'Content-Type must be application/json') };
	}
	try {
		return { ok: true, value: JSON.parse(raw) as unknown };
	} catch {
		return { ok: false, reply: messageReply(400, 'Request body is not valid JSON') };
	}
}

/** The media type of a header value, lower-cased, without parameters. */
export function mediaType(value: string | string[] | undefined): string {
	const text = Array.isArray(value) ? value.join(',') : (value ?? '');
	return text.split(';')[0].trim().toLowerCase();
}

/** The media types of a header value, lower-cased, without parameters. */
export function mediaTypes(value: string | string[] | undefined): string[] {
	const text = Array.isArray(value) ? value.join(',') : (value ?? '');
	return text
		.split(',')
		.map((part) => part.split(';')[0].trim().toLowerCase())
		.filter(Boolean);
}
