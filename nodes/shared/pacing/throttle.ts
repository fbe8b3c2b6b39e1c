import {
	anySignal,
	pause,
	type Clock,
	type Deadline,
	type SlotRefusal,
	type Throttle,
} from './time';

const WINDOW_MS = 60_000;

/** Room for timer lateness and the network between slot and arrival: 0.4 % of a minute. */
export const WINDOW_MARGIN_MS = 250;

/** Above this rate only the spacing applies, and a minute's sends are not all kept: memory. */
const MAX_WINDOW_RECORD = 6_000;

/** A 429 cuts the pace to at most this share of what the service accepted of it. */
export const DECREASE_FACTOR = 0.85;

/** How long the pace stays near where contention showed before it probes above (CUBIC's K). */
export const PLATEAU_SEC = 4;

/** A 429 cuts no pace of which the platform accepted all but this share over the last minute. */
const PACE_KEPT_BELOW = 0.02;

/** One 429 at most halves the pace, however few of the recent requests were accepted. */
const MAX_CUT = 0.5;

export const ACCEPTANCE_WINDOW_MS = 5_000;

/** Slots are spaced at the pace when booked: far bookings would keep a cut pace after it climbs. */
const BOOKING_HORIZON_MS = 2_000;

/** While executions share the client, none books further ahead: a webhook's request waits this at most. */
const SHARED_HORIZON_MS = 500;

/** An execution that asked for no slot this long has ended, or only waits (for a transaction). */
const SHARING_MEMORY_MS = 10_000;

const MIN_SHARE = 0.05;

const MIN_PROBE = 0.5;

/** While no 429 came, a send leaves this early in its slot: no short window then counts one too many. */
const CALM_JITTER = 0.02;

/** Even starts (no bursts), a sliding minute within the rate, a pace cut by 429s (CUBIC climb). */
export class RequestThrottle implements Throttle {
	private contendedAt: number;

	private cutTo: number;

	private climbFrom = Number.NEGATIVE_INFINITY;

	/** Sends and 429s of the last minute: the share accepted lately, and the pace granted. */
	private readonly sentAt: number[] = [];

	private readonly refusedAt: number[] = [];

	private lastRefusedAt = Number.NEGATIVE_INFINITY;

	private lastCutAt = Number.NEGATIVE_INFINITY;

	private nextSlotAt = 0;

	/** Where `nextSlotAt` stands for the slots already used (the bookings no longer waiting). */
	private usedUntil = 0;

	private readonly waiting = new Set<Booking>();

	/** When each execution last asked for a slot: two of them lately, and each books nearer. */
	private readonly askedAt = new Map<object, number>();

	private pausedUntil = 0;

	private pauseEpoch = 0;

	private readonly turns = new Turns();

	/** The last minute's slots, oldest first, when the rate is low enough to keep them. */
	private slots: number[] = [];

	constructor(
		private ceilingPerMin: number,
		private readonly clock: Clock = Date.now,
	) {
		this.contendedAt = ceilingPerMin;
		this.cutTo = ceilingPerMin;
	}

	setRate(requestsPerMinute: number): void {
		if (requestsPerMinute === this.ceilingPerMin) return;
		this.ceilingPerMin = requestsPerMinute;
		this.cutTo = Math.min(this.cutTo, requestsPerMinute);
		this.contendedAt = Math.min(this.contendedAt, requestsPerMinute);
		this.slots = [];
	}

	/** Climbs back from a cut, stays near the contended pace for PLATEAU_SEC, then probes (CUBIC). */
	currentRate(): number {
		if (this.ceilingPerMin <= 0) return 0;
		const t = (this.clock() - this.climbFrom) / 1000 / PLATEAU_SEC - 1;
		if (t <= -1) return Math.min(this.ceilingPerMin, this.cutTo);
		const below = this.contendedAt - this.cutTo;
		const step = t < 0 ? below : Math.max(below, MIN_PROBE * this.ceilingPerMin);
		return Math.min(this.ceilingPerMin, this.contendedAt + step * t ** 3);
	}

	/**
	 * Executions book round-robin, each near its turn while several share the client: a webhook's
	 * requests do not wait out a bulk run's bookings. Only a request of no execution that already
	 * started (the token request) books at once.
	 */
	async acquire(
		deadline?: Deadline,
		sendable: () => boolean = () => true,
	): Promise<SlotRefusal | undefined> {
		const owner = deadline?.cancelSignal ?? ANY_EXECUTION;
		const takesTurns =
			deadline !== undefined && (!deadline.started || deadline.cancelSignal !== undefined);
		if (takesTurns) this.asked(owner);
		let queued = false;
		try {
			for (;;) {
				if (deadline?.cancelled) return 'cancelled';
				if (!sendable()) return 'unsendable';
				const epoch = this.pauseEpoch;
				const now = this.clock();
				const slot = Math.max(now, this.nextSlotAt, this.pausedUntil, this.windowOpensAt());
				if (deadline?.started && slot - now > deadline.remainingMs()) return 'deadline';
				const horizon = this.horizon();
				const far = slot - now > horizon;
				if (takesTurns && (far || !this.turns.mayBook(owner))) {
					if (!queued) this.turns.join(owner);
					queued = true;
					const step =
						far && this.turns.size < 2
							? horizon / 2
							: Math.min(BOOKING_HORIZON_MS / 2, Math.max(20, spacingFor(this.currentRate())));
					if (!(await pause(step, deadline.cancelSignal, this.clock))) return 'cancelled';
					continue;
				}
				if (takesTurns) this.turns.booked(owner);
				const refused = await this.take(slot, now, epoch, deadline);
				if (refused !== 'retry') return refused;
			}
		} finally {
			if (queued) this.turns.leave(owner);
		}
	}

	private horizon(): number {
		const shared = this.askedAt.size > 1 ? SHARED_HORIZON_MS : BOOKING_HORIZON_MS;
		return Math.max(shared, 2 * spacingFor(this.currentRate()));
	}

	/** An execution new beside another voids the bookings beyond the shared horizon: they book again. */
	private asked(owner: object): void {
		const now = this.clock();
		for (const [other, at] of this.askedAt) {
			if (at < now - SHARING_MEMORY_MS) this.askedAt.delete(other);
		}
		const arrives = !this.askedAt.has(owner);
		this.askedAt.set(owner, now);
		if (!arrives || this.askedAt.size < 2) return;
		const until = now + this.horizon();
		const voided = [...this.waiting].filter((booking) => booking.slot > until);
		for (const booking of voided) booking.void.abort();
		if (voided.length > 0) this.rewind();
	}

	/** The next slot follows the bookings still to be used: none is left unsent between them. */
	private rewind(): void {
		const kept = [...this.waiting].filter((booking) => !booking.void.signal.aborted);
		this.nextSlotAt = Math.max(this.usedUntil, ...kept.map((booking) => booking.next));
	}

	private async take(
		slot: number,
		now: number,
		epoch: number,
		deadline?: Deadline,
	): Promise<SlotRefusal | undefined | 'retry'> {
		const interval = spacingFor(this.currentRate());
		this.nextSlotAt = slot + interval;
		// After a 429, at random in the slot's first half: processes paced alike must not keep one order.
		const contended = now - this.lastRefusedAt < WINDOW_MS;
		const sendAt = slot + Math.random() * interval * (contended ? 0.5 : CALM_JITTER);
		this.remember(sendAt);
		const booking: Booking = { slot, next: this.nextSlotAt, void: new AbortController() };
		this.waiting.add(booking);
		// Timers cannot wait less than a millisecond: a nearer slot is taken at once.
		const wait = sendAt - now;
		const { signal, dispose } = anySignal([deadline?.cancelSignal, booking.void.signal]);
		const waited = wait < 1 || (await pause(wait, signal, this.clock));
		dispose();
		this.waiting.delete(booking);
		if (waited && epoch === this.pauseEpoch) {
			this.usedUntil = Math.max(this.usedUntil, booking.next);
			this.answered(this.sentAt, this.clock());
			deadline?.start();
			return undefined;
		}
		this.forget(sendAt);
		// A 429 seen while we waited invalidates the slot: it was spaced at the pace before it.
		if (waited || !deadline?.cancelled) return 'retry';
		// A cancelled bulk run must not make the client's next run wait out slots nobody sends in.
		this.rewind();
		return 'cancelled';
	}

	holdAll(ms: number): void {
		const until = this.clock() + ms;
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		this.nextSlotAt = Math.max(this.nextSlotAt, until);
		this.pauseEpoch++;
	}

	/**
	 * The next slot is the first unused one: a token request goes before the bookings it voids,
	 * and they leave their wait at once, so none holds a slot the new token's first request needs.
	 */
	rebook(): void {
		this.pauseEpoch++;
		for (const booking of this.waiting) booking.void.abort();
		this.nextSlotAt = Math.max(this.usedUntil, this.pausedUntil);
	}

	/**
	 * Cuts the pace once per pause (the requests in flight report the same contention), but not
	 * while the platform accepted the whole pace over the last minute: one process at its pace
	 * meets a 429 when the platform's minute was full for another reason, and its Retry-After
	 * says when it opens; workers sharing a client each see less than their pace accepted.
	 */
	throttled(pauseMs: number): void {
		const now = this.clock();
		this.answered(this.refusedAt, now);
		this.lastRefusedAt = now;
		const settled = now >= this.pausedUntil;
		this.holdAll(pauseMs);
		if (!settled || this.ceilingPerMin <= 0) return;
		// The slots booked meanwhile are taken again after the pause (see `take`).
		this.nextSlotAt = this.pausedUntil;
		if (this.grantedPerMin(now) >= this.currentRate() * (1 - PACE_KEPT_BELOW)) return;
		// One cut per ACCEPTANCE_WINDOW_MS: the share accepted lately still holds the 429s the last cut
		// answered. Cut again at each pause, a worker fell to a few a minute beside one never refused.
		if (now - this.lastCutAt >= ACCEPTANCE_WINDOW_MS) this.cut(now);
		this.climbFrom = this.pausedUntil;
	}

	/** What the platform accepted of this process over the last minute (at least a second of it). */
	private grantedPerMin(now: number): number {
		const span = Math.min(WINDOW_MS, Math.max(1_000, now - (this.sentAt[0] ?? now)));
		return ((this.sentAt.length - this.refusedAt.length) * WINDOW_MS) / span;
	}

	private cut(now: number): void {
		this.lastCutAt = now;
		const floor = Math.max(1, MIN_SHARE * this.ceilingPerMin);
		const lately = (times: number[]) => times.filter((t) => t > now - ACCEPTANCE_WINDOW_MS).length;
		const sent = lately(this.sentAt);
		const accepted = sent === 0 ? 1 : Math.max(MAX_CUT, (sent - lately(this.refusedAt)) / sent);
		const granted = Math.max(floor, this.currentRate() * accepted);
		// Cut below where contention showed: lower that too, room for a newcomer (fast convergence).
		const contended = granted < this.contendedAt ? (granted * (1 + DECREASE_FACTOR)) / 2 : granted;
		// 429s in a row (a window full for 30 s) would compound the cuts far below what the service
		// granted over the last minute: the climb returns at least to that.
		this.contendedAt = Math.max(contended, this.grantedPerMin(now));
		this.cutTo = Math.max(floor, granted * DECREASE_FACTOR);
	}

	private answered(times: number[], now: number): void {
		times.push(now);
		for (const kept of [this.sentAt, this.refusedAt]) {
			while (kept.length > MAX_WINDOW_RECORD || (kept[0] ?? now) <= now - WINDOW_MS) kept.shift();
		}
	}

	private windowOpensAt(): number {
		const size = this.windowSize();
		return size > 0 && this.slots.length === size
			? this.slots[0] + WINDOW_MS + WINDOW_MARGIN_MS
			: 0;
	}

	private remember(slot: number): void {
		if (this.windowSize() === 0) return;
		this.slots.push(slot);
		if (this.slots.length > this.windowSize()) this.slots.shift();
	}

	private forget(slot: number): void {
		const at = this.slots.lastIndexOf(slot);
		if (at >= 0) this.slots.splice(at, 1);
	}

	private windowSize(): number {
		const size = Math.floor(this.ceilingPerMin);
		return size > 0 && size <= MAX_WINDOW_RECORD ? size : 0;
	}
}

interface Booking {
	slot: number;
	next: number;
	/** Aborted when a newcomer needs the slot sooner: the request books again. */
	void: AbortController;
}

/** The owner of requests that carry no cancel signal: they all take one turn. */
const ANY_EXECUTION = {};

/** Round-robin among executions whose requests wait to book: how many each, in turn order. */
class Turns extends Map<object, number> {
	join(owner: object): void {
		this.set(owner, (this.get(owner) ?? 0) + 1);
	}

	leave(owner: object): void {
		const count = (this.get(owner) ?? 0) - 1;
		if (count > 0) this.set(owner, count);
		else this.delete(owner);
	}

	mayBook(owner: object): boolean {
		return this.size === 0 || this.keys().next().value === owner;
	}

	booked(owner: object): void {
		if (this.size < 2 || !this.mayBook(owner)) return;
		const count = this.get(owner)!;
		this.delete(owner);
		this.set(owner, count);
	}
}

/** Slots a margin apart: n slots span more than n intervals, so no short window takes n + 1. */
export function spacingFor(requestsPerMinute: number): number {
	return requestsPerMinute > 0 ? (WINDOW_MS + WINDOW_MARGIN_MS) / requestsPerMinute : 0;
}

/** Per API client (`clientKey`) for the whole process: the platform throttles per client id. */
const throttles = new Map<string, { throttle: RequestThrottle; rates: Map<string, number> }>();

/** Two credentials with one client id share the platform's budget, so the lowest rate wins. */
export function clientThrottle(
	key: string,
	credentialId: string,
	requestsPerMinute: number,
): { throttle: RequestThrottle; requestsPerMinute: number } {
	const client = throttles.get(key) ?? { throttle: new RequestThrottle(300), rates: new Map() };
	throttles.set(key, client);
	client.rates.set(credentialId, requestsPerMinute);
	const lowest = Math.min(...client.rates.values());
	client.throttle.setRate(lowest);
	return { throttle: client.throttle, requestsPerMinute: lowest };
}

/** The client's throttle if a run of this process opened one (a token request takes its turns). */
export function openedThrottle(key: string): RequestThrottle | undefined {
	return throttles.get(key)?.throttle;
}

export function concurrencyFor(requestsPerMinute: number): number {
	// Enough requests in flight to cover up to three seconds of latency at the full rate.
	const perSecond = requestsPerMinute > 0 ? requestsPerMinute / 60 : 10;
	return Math.min(200, Math.max(2, Math.ceil(perSecond * 3)));
}
