/**
 * Asynchronous write transactions. Completion is computed lazily: every request (and
 * every state read) first settles the transactions whose delay has passed, so no timers
 * keep the process alive and observers always see writes applied in completion order.
 */

import { randomUUID } from 'crypto';

export type TransactionStatus = 'initiated' | 'success' | 'failed';

export interface TransactionOutcome {
	ok: boolean;
	message: string;
}

/** What the API shows of a transaction. */
export interface TransactionView {
	id: string;
	http_method: 'POST';
	status: TransactionStatus;
	response: { message?: string };
}

export interface TransactionRecord extends TransactionView {
	path: string;
	/** The external_id the write concerns, to find it in the state. */
	external_id: string;
	created_at: string;
	completes_at: string;
	completed_at: string | null;
}

interface PendingTransaction {
	record: TransactionRecord;
	completesAt: number;
	apply: (now: number) => TransactionOutcome;
}

export class TransactionStore {
	private readonly records = new Map<string, TransactionRecord>();
	private pending: PendingTransaction[] = [];
	/** When the queue's last transaction completes (with a capacity per second). */
	private queueFreeAt = Number.NEGATIVE_INFINITY;

	create(
		path: string,
		externalId: string,
		apply: (now: number) => TransactionOutcome,
		delayMs: number,
		now: number,
		perSecond = 0,
	): TransactionRecord {
		// "Processing is queued and runs as capacity allows": with a capacity, one transaction
		// completes every 1/perSecond s at the earliest, in the order they were accepted.
		let completesAt = now + delayMs;
		if (perSecond > 0) {
			completesAt = Math.max(completesAt, this.queueFreeAt + 1000 / perSecond);
			this.queueFreeAt = completesAt;
		}
		const record: TransactionRecord = {
			id: randomUUID(),
			http_method: 'POST',
			status: 'initiated',
			response: {},
			path,
			external_id: externalId,
			created_at: new Date(now).toISOString(),
			completes_at: new Date(completesAt).toISOString(),
			completed_at: null,
		};
		this.records.set(record.id, record);
		this.pending.push({ record, completesAt, apply });
		return record;
	}

	/** Completes, in order, every transaction whose delay has passed by `now`. */
	settle(now: number): void {
		const due = this.pending.filter((entry) => entry.completesAt <= now);
		if (due.length === 0) return;
		this.pending = this.pending.filter((entry) => entry.completesAt > now);
		// A stable sort: those due at the same moment complete in the order they were accepted.
		due.sort((a, b) => a.completesAt - b.completesAt);
		for (const entry of due) {
			const outcome = entry.apply(entry.completesAt);
			entry.record.status = outcome.ok ? 'success' : 'failed';
			entry.record.response = { message: outcome.message };
			entry.record.completed_at = new Date(entry.completesAt).toISOString();
		}
	}

	get(id: string): TransactionRecord | undefined {
		return this.records.get(id);
	}

	static view(record: TransactionRecord): TransactionView {
		return {
			id: record.id,
			http_method: record.http_method,
			status: record.status,
			response: { ...record.response },
		};
	}

	snapshot(): TransactionRecord[] {
		return Array.from(this.records.values()).map((record) => structuredClone(record));
	}

	clear(): void {
		this.records.clear();
		this.pending = [];
		this.queueFreeAt = Number.NEGATIVE_INFINITY;
	}
}
