/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/** Unauthenticated control paths under /__sandbox/ (never throttled, faulted or logged). */

import type { LoggedRequest } from './log';
import { OptionError, type SandboxOptions } from './options';
import { jsonReply, messageReply, parseJsonBody, type Reply } from './reply';
import type { SandboxState } from './state';
import { isJsonObject } from './validation';

export const ADMIN_PREFIX = '/__sandbox/';

export interface AdminControls {
	requests(): LoggedRequest[];
	clearRequests(): void;
	state(): SandboxState;
	reset(): void;
	configure(change: Partial<SandboxOptions>): SandboxOptions;
	options(): SandboxOptions;
}

export const ADMIN_PATHS = [
	'GET    /__sandbox/requests   the request log',
	'DELETE /__sandbox/requests   clear the request log',
	'GET    /__sandbox/state      courses, assignments, transactions, counters',
	'POST   /__sandbox/reset      clear all data and the log',
	'GET    /__sandbox/config     the current options',
	'POST   /__sandbox/config     change options, e.g. {"fault5xx":0.1}',
	'GET    /__sandbox/health     liveness',
];

function configure(
	rawBody: string,
	contentType: string | undefined,
	controls: AdminControls,
): Reply {
	const body = parseJsonBody(rawBody, contentType);
	if (!body.ok) return body.reply;
	if (!isJsonObject(body.value)) return messageReply(400, 'Send a JSON object of options');
	try {
		return jsonReply(200, { options: controls.configure(body.value as Partial<SandboxOptions>) });
	} catch (error) {
		if (error instanceof OptionError) return messageReply(400, error.message);
		throw error;
	}
}

export function handleAdmin(
	method: string,
	path: string,
	rawBody: string,
	contentType: string | undefined,
	controls: AdminControls,
): Reply {
	const route = `${method} ${path.replace(/\/+$/, '')}`;
	switch (route) {
		case 'GET /__sandbox/requests':
			return jsonReply(200, controls.requests());
		case 'DELETE /__sandbox/requests':
			controls.clearRequests();
			return jsonReply(200, { message: 'Request log cleared' });
		case 'GET /__sandbox/state':
			return jsonReply(200, controls.state());
		case 'POST /__sandbox/reset':
			controls.reset();
			return jsonReply(200, { message: 'Sandbox reset' });
		case 'GET /__sandbox/config':
			return jsonReply(200, { options: controls.options() });
		case 'POST /__sandbox/config':
			return configure(rawBody, contentType, controls);
		case 'GET /__sandbox/health':
			return jsonReply(200, { status: 'ok' });
		default:
			return messageReply(404, `No admin route ${route}; available:\n${ADMIN_PATHS.join('\n')}`);
	}
}
