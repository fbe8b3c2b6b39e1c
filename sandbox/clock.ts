/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/**
 * The sandbox's only source of time: token expiry, the throttle, transaction completion,
 * latency waits and the request log all read it. The system clock is the default; tests
 * pass a ManualClock to `startSandbox(options, { clock })` and move time themselves.
 */

export interface SandboxClock {
	/** Milliseconds since the epoch, like Date.now(). */
	now(): number;
	/** Calls `callback` once `ms` have passed on this clock; returns a handle for clearTimer. */
	setTimer(callback: () => void, ms: number): unknown;
	clearTimer(handle: unknown): void;
}

export const SYSTEM_CLOCK: SandboxClock = Object.freeze({
	now: () => Date.now(),
	setTimer: (callback: () => void, ms: number) => setTimeout(callback, ms),
	clearTimer: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
});

interface ManualTimer {
	at: number;
	ms: number;
	order: number;
	callback: () => void;
}

/** 2026-01-01T00:00:00Z: a fixed start, so dates derived from the clock repeat run to run. */
export const MANUAL_CLOCK_START = Date.UTC(2026, 0, 1);

/** A clock that moves only when told to: time-dependent behaviour without waiting for it. */
export class ManualClock implements SandboxClock {
	private current: number;
	private readonly timers = new Map<number, ManualTimer>();
	private nextHandle = 1;
	private watchers: Array<() => void> = [];

	constructor(start = MANUAL_CLOCK_START) {
		this.current = start;
	}

	now(): number {
		return this.current;
	}

	setTimer(callback: () => void, ms: number): number {
		const handle = this.nextHandle++;
		const delay = Math.max(0, ms);
		this.timers.set(handle, { at: this.current + delay, ms: delay, order: handle, callback });
		const watchers = this.watchers;
		this.watchers = [];
		for (const watcher of watchers) watcher();
		return handle;
	}

	clearTimer(handle: unknown): void {
		this.timers.delete(handle as number);
	}

	/** The delays (ms, as requested) of the timers still waiting, oldest first. */
	get pendingDelays(): number[] {
		return this.pending().map((timer) => timer.ms);
	}

	/** Resolves with `pendingDelays` once at least `count` timers are waiting. */
	whenTimers(count = 1): Promise<number[]> {
		return new Promise((resolve) => {
			const check = () => {
				if (this.timers.size >= count) resolve(this.pendingDelays);
				else this.watchers.push(check);
			};
			check();
		});
	}

	/** Moves time forward by `ms`, firing the timers that fall due, in order. */
	advance(ms: number): void {
		if (!(ms >= 0)) throw new Error(`cannot move a clock by ${ms} ms`);
		const target = this.current + ms;
		for (;;) {
			const due = this.pending().find((timer) => timer.at <= target);
			if (!due) break;
			this.timers.delete(due.order);
			this.current = Math.max(this.current, due.at);
			due.callback();
		}
		this.current = target;
	}

	private pending(): ManualTimer[] {
		return [...this.timers.values()].sort((a, b) => a.at - b.at || a.order - b.order);
	}
}
