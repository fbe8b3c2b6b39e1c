import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PoolPlace } from '../../shared/pacing/time';
import { Deadline } from '../../shared/pacing/time';
import type { Existing, Sent } from '../../shared/sync/contract';
import { forEachCoursePage, indexedCourse } from './courses';
import type { IndexedCourse, LmsRun, WriteSettings } from './index';
import { confirmWrite, getTransaction } from './index';

/** What both syncs share: ids and keys, and each write sent, then confirmed. */

export function digest(text: string, length: number): string {
	return createHash('sha256').update(text).digest('base64url').slice(0, length);
}

/** The memory scope of a client (base URL and client id): memory never crosses catalogs. */
export function scopeKey(client: string): string {
	return digest(`client\u0000${client}`, 12);
}

const LIST_DEADLINE_MS = 30 * 60_000;

/** The whole catalog, listed once (Sync Catalog's reading, Sync Assignments' dry-run check). */
export async function listCatalog(
	run: LmsRun,
	deadlineMs = LIST_DEADLINE_MS,
): Promise<{ existing: Array<Existing<IndexedCourse>>; endedEarly?: string }> {
	const existing: Array<Existing<IndexedCourse>> = [];
	const { endedEarly } = await forEachCoursePage(
		run,
		0,
		{ deadline: run.deadline(deadlineMs, { startsAtFirstSlot: true }) },
		(courses) => {
			for (const entry of courses.map(indexedCourse)) {
				if (entry) existing.push({ id: entry[0], listed: entry[1] });
			}
			return true;
		},
	);
	return { existing, endedEarly };
}

/** Equal after Unicode normalisation, trimming and case folding. */
export function lookAlike(id: string): string {
	return id.normalize('NFKC').trim().toUpperCase().toLowerCase();
}

export type PostUnconfirmed = (
	writeRun: LmsRun,
	write: { waitForCompletion: false; deadline: Deadline; onAccepted: (tx: string) => void },
) => Promise<IDataObject>;

/** Once sent, a write is not cut off by a cancelled execution: its answer names the transaction. */
async function sendThenConfirm(
	run: LmsRun,
	itemIndex: number,
	settings: WriteSettings,
	place: { release(): void },
	post: PostUnconfirmed,
	onAccepted: (transactionId: string) => void,
): Promise<{ output: IDataObject; confirmed: boolean }> {
	const writeRun: LmsRun = {
		...run,
		get stopped() {
			return run.stopped || run.cancelSignal?.aborted === true;
		},
	};
	const sending = new Deadline(settings.deadline.budgetMs, undefined, Date.now, {
		startsAtFirstSlot: true,
	});
	const sent = await post(writeRun, { waitForCompletion: false, deadline: sending, onAccepted });
	if (!settings.waitForCompletion) return { output: sent, confirmed: false };
	place.release();
	const output = await confirmWrite(run, itemIndex, sent, run.deadline(sending.remainingMs()));
	return { output, confirmed: true };
}

/** The state of a transaction accepted on an earlier run, read once. */
async function transactionState(
	run: LmsRun,
	transactionId: string,
): Promise<'success' | 'failed' | 'initiated'> {
	const transaction = await getTransaction(
		run,
		0,
		transactionId,
		run.deadline(60_000, { startsAtFirstSlot: true }),
	);
	return transaction.status as 'success' | 'failed' | 'initiated';
}

/** Read from what `waitForTransaction` puts on its error: ended, not in success; nothing applied. */
function endedWithoutSuccess(error: unknown): boolean {
	const status = (error as { context?: { details?: { status?: unknown } } })?.context?.details
		?.status;
	return typeof status === 'string' && status !== 'initiated' && status !== 'success';
}

/** The parts both syncs share: each write sent, then confirmed; earlier transactions read once. */
export function lmsSync(run: LmsRun, write: () => WriteSettings) {
	return {
		send: async (
			itemIndex: number,
			place: PoolPlace,
			post: PostUnconfirmed,
			onAccepted: (transactionId: string) => void,
		): Promise<Sent> => await sendThenConfirm(run, itemIndex, write(), place, post, onAccepted),
		settle: async (transactionId: string) => await transactionState(run, transactionId),
		rejected: endedWithoutSuccess,
		refusal: (message: string, itemIndex: number, description: string) =>
			new NodeOperationError(run.fns.getNode(), message, { itemIndex, description }),
	};
}
