/**
 * Once an item has failed and the run will stop (Continue On Fail off), requests of other items
 * that are still waiting for a throttle slot must not go out: the run reports that items not
 * yet started were not sent. The router marks its execution context; the transport checks it.
 */
const stoppedContexts = new WeakSet<object>();

export function stopSending(context: object): void {
	stoppedContexts.add(context);
}

export function isSendingStopped(context: object): boolean {
	return stoppedContexts.has(context);
}
