import { ExecutionLifecycleHooks } from 'n8n-core';
import type { IExecuteResponsePromiseData } from 'n8n-workflow';

/**
 * What "Respond to Webhook" nodes send. In n8n the webhook server receives it through the
 * execution's `sendResponse` hook; the engine harness registers no such hook, so the demo
 * listens in on every execution's hooks to see the reply the caller would get.
 */
const replies: IExecuteResponsePromiseData[] = [];

/** Installs the listener; the demo calls it once, at its start. */
export function captureWebhookReplies(): void {
	const runHook = ExecutionLifecycleHooks.prototype.runHook;
	ExecutionLifecycleHooks.prototype.runHook = async function (
		this: ExecutionLifecycleHooks,
		hookName,
		parameters,
	) {
		if (hookName === 'sendResponse')
			replies.push((parameters as unknown as [IExecuteResponsePromiseData])[0]);
		return await runHook.call(this, hookName, parameters);
	} as typeof runHook;
}

/** The replies sent since the last call, oldest first. */
export function takeWebhookReplies(): IExecuteResponsePromiseData[] {
	return replies.splice(0, replies.length);
}
