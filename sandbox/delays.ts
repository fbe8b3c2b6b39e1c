/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/** Latency waits that close() can cut short, so no timer outlives the server. */

export class Delays {
	private readonly waiting = new Map<NodeJS.Timeout, () => void>();

	wait(ms: number): Promise<void> {
		if (ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.waiting.delete(timer);
				resolve();
			}, ms);
			this.waiting.set(timer, resolve);
		});
	}

	/** Ends every wait now; the waiting handlers then see the server is closed. */
	cancelAll(): void {
		for (const [timer, resolve] of this.waiting) {
			clearTimeout(timer);
			resolve();
		}
		this.waiting.clear();
	}
}
