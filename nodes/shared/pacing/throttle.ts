import type { Clock, Deadline } from './deadline';
import { pause } from './waiting';

/** Why a caller did not get a slot. */
export type SlotRefusal = 'cancelled' | 'deadline';

/** The service counts requests per minute. */
const WINDOW_MS = 60_000;

/**
 * Room left on the service's minute for the time between a slot and the request's arrival
 * (timer lateness, n8n's request helper, the network): a slot is never closer than a minute
 * and this much to the slot `requestsPerMinute` places back. Costs 0.4 % of a minute.
 */
export const WINDOW_MARGIN_MS = 250;

/** Above this rate only the spacing applies: the window's record would cost memory. */
const MAX_WINDOW_RECORD = 6_000;

/** A 429 cuts the pace to at most this share of what the service accepted of it. */
export const DECREASE_FACTOR = 0.85;

/** How long the pace stays near where contention showed before it probes above (CUBIC's K). */
export const PLATEAU_SEC = 10;

/** One 429 at most halves the pace, however few of the recent requests were accepted. */
const MAX_CUT = 0.5;

/** How far into its slot a send may be placed, as a share of the slot (see `take`). */
const JITTER = 0.5;

/** How far back the share of this process's requests the service accepted is measured. */
export const ACCEPTANCE_WINDOW_MS = 5_000;

/**
 * How far ahead an item's first request may book a slot. Slots are spaced at the pace in force
 * when booked: a queue of bookings made while the pace was cut would keep it cut long after it
 * climbed back (many executions on one queue-mode worker queue dozens of items). Beyond this, a
 * first request waits without booking and asks again; retries (a started deadline) book at
 * once, so they go first.
 */
export const BOOKING_HORIZON_MS = 2_000;

/** The pace never drops below this share of the configured rate. */
const MIN_SHARE = 0.05;

/** Above where contention showed, the probe grows by at least this share of the rate per plateau. */
const MIN_PROBE = 0.5;

/**
 * Paces one client's requests so that it never goes over its per-minute budget. One instance
 * per client lives for the whole process (see clients.ts): every execution and every item that
 * uses the client shares it.
 *
 * - Starts are spaced evenly (60000 / rate ms), never let through in bursts, so a service that
 *   refills a small bucket every second is never emptied.
 * - A service that counts a sliding minute (the documents say "300 requests per minute") is
 *   never asked for more than `requestsPerMinute` in any minute plus WINDOW_MARGIN_MS, however
 *   late timers fired before: the slot `requestsPerMinute` places back is remembered.
 * - Processes that share a client but no memory (n8n's queue mode) find the budget left to
 *   them from the service's 429s: every Retry-After honoured, a cut to the share the service
 *   accepted, a CUBIC-shaped climb back. The configured rate stays the upper bound.
 */
export class RequestThrottle {
	/** The configured rate: the upper bound. */
	private ceilingPerMin: number;

	/** The pace when contention last showed, the pace it was cut to, and when the climb starts. */
	private contendedAt: number;

	private cutTo: number;

	private climbFrom = Number.NEGATIVE_INFINITY;

	/** This process's recent requests and the 429s among them: the share the service accepted. */
	private readonly answers = new RecentAnswers();

	private nextSlotAt = 0;

	/** Where `nextSlotAt` stands for the slots already used (the bookings no longer waiting). */
	private usedUntil = 0;

	/** Slots booked by callers still waiting for them; a caller cancelled gives its slot back. */
	private readonly waiting = new Set<Booking>();

	private pausedUntil = 0;

	private pauseEpoch = 0;

	/** Executions whose first requests wait to book, in turn order. */
	private readonly turns = new Turns();

	/** The last `requestsPerMinute` slots handed out, as a ring (empty above MAX_WINDOW_RECORD). */
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

	/**
	 * The pace now: the configured rate, or less after contention. From the cut it climbs back
	 * towards where contention showed, stays near it for PLATEAU_SEC, then probes above ever
	 * faster (CUBIC's curve): others' share freed when they stop is taken back within seconds.
	 */
	currentRate(): number {
		if (this.ceilingPerMin <= 0) return 0;
		const t = (this.clock() - this.climbFrom) / 1000 / PLATEAU_SEC - 1;
		if (t <= -1) return Math.min(this.ceilingPerMin, this.cutTo);
		const step = Math.max(this.contendedAt - this.cutTo, MIN_PROBE * this.ceilingPerMin);
		const below = this.contendedAt - this.cutTo;
		const climbed = this.contendedAt + (t < 0 ? below : step) * t ** 3;
		return Math.min(this.ceilingPerMin, climbed);
	}

	/**
	 * Resolves when the caller may send one request, or with the reason it may not: the run was
	 * cancelled, or the slot lies beyond the caller's deadline. A deadline that has not started
	 * (an item's first request) starts with the slot.
	 *
	 * First requests of different executions (told apart by their cancel signal) book in turn,
	 * round-robin, not first come first served: a webhook's one item is not queued behind the
	 * hundreds of a bulk run on the same client. One execution alone books as before.
	 */
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
					// Alone, ask again in half the horizon; taking turns, within a slot.
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

	/** Books `slot` and waits for it; 'retry' when a 429 seen meanwhile invalidated it. */
	private async take(
		slot: number,
		now: number,
		epoch: number,
		deadline?: Deadline,
	): Promise<SlotRefusal | undefined | 'retry'> {
		const interval = intervalFor(this.currentRate());
		this.nextSlotAt = slot + interval;
		// A random place within the first half of the slot: processes paced alike would otherwise
		// meet the service in the same order, every 429 falling on the same one.
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

	/** Holds every request of this client back, e.g. for a 429's Retry-After. */
	holdAll(ms: number): void {
		const until = this.clock() + ms;
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		this.nextSlotAt = Math.max(this.nextSlotAt, until);
		this.pauseEpoch++;
	}

	/**
	 * The service answered 429: someone else spends the budget too. Honour its Retry-After
	 * (`pauseMs`, the climb starts there) and cut the pace — to the share of this process's
	 * recent requests the service accepted when that is less than DECREASE_FACTOR — at most once
	 * per pause, since the requests already in flight report the same contention.
	 */
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
		this.contendedAt =
			granted < this.contendedAt ? (granted * (1 + DECREASE_FACTOR)) / 2 : granted;
		this.cutTo = Math.max(floor, granted * DECREASE_FACTOR);
		this.climbFrom = this.pausedUntil;
		// The slots booked meanwhile are taken again at the new pace (see `take`).
		this.nextSlotAt = this.pausedUntil;
	}

	/**
	 * A cancelled caller's slot, never used: it leaves the minute's record, and the next slot
	 * moves back to what the used slots and the bookings still waiting ask for. So a cancelled
	 * bulk run does not make the next run of the client wait out slots nobody sends in.
	 */
	private giveBack(booking: Booking): void {
		this.waiting.delete(booking);
		this.forget(booking.slot);
		let next = this.usedUntil;
		for (const other of this.waiting) next = Math.max(next, other.next);
		this.nextSlotAt = next;
	}

	/** The earliest slot that keeps the last minute (and the margin) within the configured rate. */
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

	/** Takes a slot out of the minute's record, which stays in the order the slots were given. */
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

/** Requests sent and 429s drawn in the last ACCEPTANCE_WINDOW_MS. */
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

	/** The share of the recent requests not refused (1 with none sent). */
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

/** A slot booked by a caller that waits for it, and where it put the next slot. */
interface Booking {
	slot: number;
	next: number;
}

/** The owner of requests that carry no cancel signal: they all take one turn. */
const ANY_EXECUTION = {};

/** How often a first request that waits for its turn asks again: within one slot. */
function turnStep(requestsPerMinute: number): number {
	return Math.min(BOOKING_HORIZON_MS / 2, Math.max(20, intervalFor(requestsPerMinute)));
}

/**
 * Round-robin among executions: who may book next. An execution joins while one of its first
 * requests waits; the one at the front books next and then goes to the back.
 */
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

	/** No one waits, or it is this execution's turn. */
	mayBook(owner: object): boolean {
		return this.order.length === 0 || this.order[0] === owner;
	}

	/** More than one execution waits to book. */
	shared(): boolean {
		return this.order.length > 1;
	}

	/** The execution booked: the next one's turn. */
	booked(owner: object): void {
		if (this.order[0] !== owner || this.order.length < 2) return;
		this.order.push(this.order.shift()!);
	}
}

function intervalFor(requestsPerMinute: number): number {
	return requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0;
}

/** How many items to keep in flight so that the throttle, not latency, sets the pace. */
export function concurrencyFor(requestsPerMinute: number): number {
	// Enough requests in flight to cover up to three seconds of latency at the full rate.
	const perSecond = requestsPerMinute > 0 ? requestsPerMinute / 60 : 10;
	return Math.min(200, Math.max(2, Math.ceil(perSecond * 3)));
}
