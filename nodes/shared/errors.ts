import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describeHttpFailure, networkWords } from './httpFailure';
import { redactText, redactValue } from './redact';

/**
 * Rebuilds an HTTP failure as a NodeApiError that carries only what the user needs: the status,
 * the API's own message and body, all redacted. The original error (whose request options hold
 * the Authorization header and URLs) is deliberately not kept as `cause`.
 */
export function apiError(
	node: INode,
	error: unknown,
	{ itemIndex, secrets = [], action }: { itemIndex?: number; secrets?: unknown[]; action?: string },
): NodeApiError {
	const failure = describeHttpFailure(error);
	const body = redactValue(failure.body, secrets);
	const apiMessage = messageFromBody(body);
	const what = action ? `${action} failed` : 'The request failed';
	const reason = failure.status
		? `HTTP ${failure.status}${apiMessage ? `: ${apiMessage}` : ''}`
		: failure.networkCode
			? networkWords(failure.networkCode)
			: redactText(failure.message, secrets);
	const description =
		body !== undefined && typeof body === 'object'
			? JSON.stringify(body).slice(0, 2000)
			: failure.networkCode
				? `Network error code: ${failure.networkCode}`
				: undefined;
	const plain: JsonObject = { message: `${what} (${reason})` };
	if (failure.status) plain.httpCode = String(failure.status);
	return new NodeApiError(node, plain, {
		itemIndex,
		httpCode: failure.status ? String(failure.status) : undefined,
		message: `${what} (${redactText(reason, secrets)})`,
		description: description && redactText(description, secrets),
	});
}

function messageFromBody(body: unknown): string | undefined {
	if (typeof body === 'string') return body.slice(0, 300) || undefined;
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	for (const key of ['message', 'error_description', 'error', 'detail']) {
		if (typeof record[key] === 'string') return record[key] as string;
	}
	return undefined;
}
