import { pause, type Clock, type Deadline } from './time';

export type SlotRefusal = 'cancelled' | 'deadline';

const WINDOW_MS = 60_000;

/** Room for timer lateness and the network between slot and arrival: 0.4 % of a minute. */
export const WINDOW_MARGIN_MS = 250;

/** Above this rate only the spacing applies: the window's record would cost memory. */
const MAX_WINDOW_RECORD = 6_000;

/** A 429 cuts the pace to at most this share of what the service accepted of it. */
export const DECREASE_FACTOR = 0.85;

/** How long the pace stays near where contention showed before it probes above (CUBIC's K). */
export const PLATEAU_SEC = 10;

/** One 429 at most halves the pace, however few of the recent requests were accepted. */
const MAX_CUT = 0.5;

const JITTER = 0.5;

export const ACCEPTANCE_WINDOW_MS = 5_000;

/** Slots are spaced at the pace when booked: far bookings would keep a cut pace after it climbs. */
export const BOOKING_HORIZON_MS = 2_000;

const MIN_SHARE = 0.05;

const MIN_PROBE = 0.5;

/** Even starts (no bursts), a sliding minute within the rate, a pace cut by 429s (CUBIC climb). */
export class RequestThrottle {
	private ceilingPerMin: number;

	private contendedAt: number;

	private cutTo: number;

	private climbFrom = Number.NEGATIVE_INFINITY;

	private readonly answers = new RecentAnswers();

	private nextSlotAt = 0;

	/** Where `nextSlotAt` stands for the slots already used (the bookings no longer waiting). */
	private usedUntil = 0;

	private readonly waiting = new Set<Booking>();

	private pausedUntil = 0;

	private pauseEpoch = 0;

	private readonly turns = new Turns();

	private slots: number[] = [];

	private slotsHead = 0;

	constructor(
		requestsPerMinute: number,
		private readonly clock: Clock = Date.now,
	) {
		this.ceilingPerMin = requestsPerMinute;
		this.contendedAt = requestsPerMinute;
		this.cutTo = requestsPerMinute;
	}

	setRate(requestsPerMinute: number): void {
		if (requestsPerMinute === this.ceilingPerMin) return;
		this.ceilingPerMin = requestsPerMinute;
		this.cutTo = Math.min(this.cutTo, requestsPerMinute);
		this.contendedAt = Math.min(this.contendedAt, requestsPerMinute);
		this.slots = [];
		this.slotsHead = 0;
	}

	/** Climbs back from a cut, stays near the contended pace for PLATEAU_SEC, then probes (CUBIC). */
	currentRate(): number {
		if (this.ceilingPerMin <= 0) return 0;
		const t = (this.clock() - this.climbFrom) / 1000 / PLATEAU_SEC - 1;
		if (t <= -1) return Math.min(this.ceilingPerMin, this.cutTo);
		const step = Math.max(this.contendedAt - this.cutTo, MIN_PROBE * this.ceilingPerMin);
		const below = this.contendedAt - this.cutTo;
		const climbed = this.contendedAt + (t < 0 ? below : step) * t ** 3;
		return Math.min(this.ceilingPerMin, climbed);
	}

	/** Executions' first requests book round-robin: a webhook's item does not wait out a bulk run. */
	async acquire(deadline?: Deadline): Promise<SlotRefusal | undefined> {
		const owner = deadline?.cancelSignal ?? ANY_EXECUTION;
		let queued = false;
		try {
			for (;;) {
				if (deadline?.cancelled) return 'cancelled';
				const epoch = this.pauseEpoch;
				const now = this.clock();
				const slot = Math.max(now, this.nextSlotAt, this.pausedUntil, this.windowOpensAt());
				if (deadline?.started && slot - now > deadline.remainingMs()) return 'deadline';
				const horizon = Math.max(BOOKING_HORIZON_MS, 2 * intervalFor(this.currentRate()));
				const first = deadline !== undefined && !deadline.started;
				if (first && (slot - now > horizon || !this.turns.mayBook(owner))) {
					if (!queued) this.turns.join(owner);
					queued = true;
					const step =
						slot - now > horizon && !this.turns.shared()
							? horizon / 2
							: turnStep(this.currentRate());
					if (!(await pause(step, deadline.cancelSignal, this.clock))) return 'cancelled';
					continue;
				}
				if (first) this.turns.booked(owner);
				const refused = await this.take(slot, now, epoch, deadline);
				if (refused !== 'retry') return refused;
			}
		} finally {
			if (queued) this.turns.leave(owner);
		}
	}

	private async take(
		slot: number,
		now: number,
		epoch: number,
		deadline?: Deadline,
	): Promise<SlotRefusal | undefined | 'retry'> {
		const interval = intervalFor(this.currentRate());
		this.nextSlotAt = slot + interval;
		// At random in the slot's first half, or processes paced alike hit the service in one order.
		const sendAt = slot + Math.random() * interval * JITTER;
		this.remember(sendAt);
		const booking: Booking = { slot: sendAt, next: this.nextSlotAt };
		this.waiting.add(booking);
		// Timers cannot wait less than a millisecond: a nearer slot is taken at once.
		const wait = sendAt - now;
		if (wait >= 1 && !(await pause(wait, deadline?.cancelSignal, this.clock))) {
			this.giveBack(booking);
			return 'cancelled';
		}
		this.waiting.delete(booking);
		// A 429 seen while we waited invalidates the slot: it was spaced at the pace before it.
		if (epoch !== this.pauseEpoch) {
			this.forget(booking.slot);
			return 'retry';
		}
		this.usedUntil = Math.max(this.usedUntil, booking.next);
		this.answers.sent(this.clock());
		deadline?.start();
		return undefined;
	}

	holdAll(ms: number): void {
		const until = this.clock() + ms;
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		this.nextSlotAt = Math.max(this.nextSlotAt, until);
		this.pauseEpoch++;
	}

	/** Cuts the pace once per pause: the requests in flight report the same contention. */
	throttled(pauseMs: number): void {
		const now = this.clock();
		this.answers.refused(now);
		const settled = now >= this.pausedUntil;
		this.holdAll(pauseMs);
		if (!settled || this.ceilingPerMin <= 0) return;
		const floor = Math.max(1, MIN_SHARE * this.ceilingPerMin);
		const accepted = Math.max(MAX_CUT, this.answers.acceptedShare(now));
		const granted = Math.max(floor, this.currentRate() * accepted);
		// Cut again before climbing back: make room for a newcomer (CUBIC's fast convergence).
		this.contendedAt = granted < this.contendedAt ? (granted * (1 + DECREASE_FACTOR)) / 2 : granted;
		this.cutTo = Math.max(floor, granted * DECREASE_FACTOR);
		this.climbFrom = this.pausedUntil;
		// The slots booked meanwhile are taken again at the new pace (see `take`).
		this.nextSlotAt = this.pausedUntil;
	}

	/** A cancelled bulk run must not make the client's next run wait out slots nobody sends in. */
	private giveBack(booking: Booking): void {
		this.waiting.delete(booking);
		this.forget(booking.slot);
		let next = this.usedUntil;
		for (const other of this.waiting) next = Math.max(next, other.next);
		this.nextSlotAt = next;
	}

	private windowOpensAt(): number {
		const size = this.windowSize();
		if (size === 0 || this.slots.length < size) return 0;
		return this.slots[this.slotsHead] + WINDOW_MS + WINDOW_MARGIN_MS;
	}

	private remember(slot: number): void {
		const size = this.windowSize();
		if (size === 0) return;
		if (this.slots.length < size) {
			this.slots.push(slot);
			return;
		}
		this.slots[this.slotsHead] = slot;
		this.slotsHead = (this.slotsHead + 1) % size;
	}

	private forget(slot: number): void {
		const ordered = [...this.slots.slice(this.slotsHead), ...this.slots.slice(0, this.slotsHead)];
		const at = ordered.lastIndexOf(slot);
		if (at < 0) return;
		ordered.splice(at, 1);
		this.slots = ordered;
		this.slotsHead = 0;
	}

	private windowSize(): number {
		const size = Math.floor(this.ceilingPerMin);
		return size > 0 && size <= MAX_WINDOW_RECORD ? size : 0;
	}
}

class RecentAnswers {
	private readonly sentAt: number[] = [];

	private readonly refusedAt: number[] = [];

	sent(now: number): void {
		this.sentAt.push(now);
		this.trim(now);
	}

	refused(now: number): void {
		this.refusedAt.push(now);
		this.trim(now);
	}

	acceptedShare(now: number): number {
		this.trim(now);
		const sent = this.sentAt.length;
		return sent === 0 ? 1 : Math.max(0, sent - this.refusedAt.length) / sent;
	}

	private trim(now: number): void {
		for (const times of [this.sentAt, this.refusedAt]) {
			while (times.length > 0 && times[0] <= now - ACCEPTANCE_WINDOW_MS) times.shift();
		}
	}
}

interface Booking {
	slot: number;
	next: number;
}

/** The owner of requests that carry no cancel signal: they all take one turn. */
const ANY_EXECUTION = {};

function turnStep(requestsPerMinute: number): number {
	return Math.min(BOOKING_HORIZON_MS / 2, Math.max(20, intervalFor(requestsPerMinute)));
}

/** Round-robin among executions whose first requests wait to book. */
class Turns {
	private readonly order: object[] = [];

	private readonly waiting = new Map<object, number>();

	join(owner: object): void {
		const count = this.waiting.get(owner) ?? 0;
		if (count === 0) this.order.push(owner);
		this.waiting.set(owner, count + 1);
	}

	leave(owner: object): void {
		const count = (this.waiting.get(owner) ?? 0) - 1;
		if (count > 0) {
			this.waiting.set(owner, count);
			return;
		}
		this.waiting.delete(owner);
		const at = this.order.indexOf(owner);
		if (at >= 0) this.order.splice(at, 1);
	}

	mayBook(owner: object): boolean {
		return this.order.length === 0 || this.order[0] === owner;
	}

	shared(): boolean {
		return this.order.length > 1;
	}

	booked(owner: object): void {
		if (this.order[0] !== owner || this.order.length < 2) return;
		this.order.push(this.order.shift()!);
	}
}

function intervalFor(requestsPerMinute: number): number {
	return requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0;
}

export function concurrencyFor(requestsPerMinute: number): number {
	// Enough requests in flight to cover up to three seconds of latency at the full rate.
	const perSecond = requestsPerMinute > 0 ? requestsPerMinute / 60 : 10;
	return Math.min(200, Math.max(2, Math.ceil(perSecond * 3)));
}
