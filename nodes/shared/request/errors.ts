import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { HttpProblem } from './answer';
import { describeHttpFailure, networkWords } from './failure';
import type { Redactor } from './redact';

/**
 * Rebuilds a failed call as a NodeApiError that carries only what the user needs: what was
 * asked, what went wrong, the API's own message and a capped, masked body. The original error
 * (whose request options hold the Authorization header and URLs) is deliberately not kept.
 */
export function apiError(
	node: INode,
	error: unknown,
	{ itemIndex, redactor, action }: { itemIndex?: number; redactor: Redactor; action?: string },
): NodeApiError {
	const problem = error instanceof HttpProblem ? error : fromUnknown(error);
	const status = problem.status;
	const body = redactor.value(problem.details.body);
	const apiMessage = problem.kind === 'status' ? messageFromBody(body) : undefined;
	const what = action ? `${action} failed` : 'The request failed';
	const description = describeBody(body, problem);
	// The platform's own reason comes first when it gives one; what was asked follows.
	const message = redactor.text(
		apiMessage
			? `${apiMessage} (${problem.message}${action ? ` while ${lowerFirst(action)}` : ''})`
			: `${what} (${problem.message})`,
	);
	const plain: JsonObject = { message };
	if (status) plain.httpCode = String(status);
	const apiError = new NodeApiError(node, plain, {
		itemIndex,
		httpCode: status ? String(status) : undefined,
		message,
		description: description && redactor.text(description),
	});
	return redactor.error(apiError);
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

function fromUnknown(error: unknown): HttpProblem {
	const failure = describeHttpFailure(error);
	if (failure.status) {
		return new HttpProblem('status', `HTTP ${failure.status}`, {
			status: failure.status,
			body: failure.body,
		});
	}
	if (failure.networkCode) return new HttpProblem('network', networkWords(failure.networkCode));
	return new HttpProblem('network', failure.message);
}

function describeBody(body: unknown, problem: HttpProblem): string | undefined {
	if (problem.kind === 'redirect' && problem.details.target) {
		return `Redirect target: ${problem.details.target}. Check the base URL in the credential (for example http:// where the service wants https://).`;
	}
	if (problem.kind === 'retryAfterTooLong' && problem.details.retryAt) {
		return `Run the workflow again after ${problem.details.retryAt}.`;
	}
	if (problem.kind === 'unexpected' || body === undefined) {
		return problem.details.networkCode
			? `Network error code: ${problem.details.networkCode}`
			: undefined;
	}
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

function messageFromBody(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	for (const key of ['message', 'error_description', 'error', 'detail']) {
		if (typeof record[key] === 'string') return (record[key] as string).slice(0, 300);
	}
	return undefined;
}
