/** Latency waits that close() can cut short, so no timer outlives the server. */

import type { SandboxClock } from './clock';

export class Delays {
	private readonly waiting = new Map<unknown, () => void>();

	constructor(private readonly clock: SandboxClock) {}

	wait(ms: number): Promise<void> {
		if (ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = this.clock.setTimer(() => {
				this.waiting.delete(timer);
				resolve();
			}, ms);
			this.waiting.set(timer, resolve);
		});
	}

	/** Ends every wait now; the waiting handlers then see the server is closed. */
	cancelAll(): void {
		for (const [timer, resolve] of this.waiting) {
			this.clock.clearTimer(timer);
			resolve();
		}
		this.waiting.clear();
	}
}
