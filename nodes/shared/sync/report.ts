import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome } from '../items/operation';
import type { SyncOutput, SyncWords } from './contract';

/** At most this many changes are listed in a summary; the rest are counted. */
export const SUMMARY_CHANGES = 1_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What a sync run reports, as its Output option asks: every row's item (`all`), all but the
 * unchanged (`changes`), or one summary item with the counts and the changes (`summary`).
 * Removals, deferred removals and missing entries come from no input row: paired with none.
 */
export class SyncResults {
	readonly outcomes = new Map<number, ItemOutcome>();

	readonly counts: Record<string, number>;

	private readonly unpaired: IDataObject[] = [];

	private readonly changes: IDataObject[] = [];

	private omitted = 0;

	constructor(
		words: SyncWords,
		private readonly output: SyncOutput,
		/** Added to every item: `dryRun` and `planId` on a dry run. */
		private readonly marks: IDataObject,
		/** Without Continue On Fail a failed row stays the row's error, whatever the output. */
		private readonly failedRowsStay: boolean,
	) {
		this.counts = {
			[words.created]: 0,
			[words.updated]: 0,
			unchanged: 0,
			[words.removed]: 0,
			failed: 0,
		};
	}

	/** `keys` name the entry in a summary: the external ID, or the email and course. */
	row(itemIndex: number, json: IDataObject, keys: IDataObject): void {
		const action = String(json.action);
		this.count(action);
		this.note(action, json, keys);
		const kept = this.output === 'all' || (this.output === 'changes' && action !== 'unchanged');
		this.outcomes.set(itemIndex, { status: 'done', json: kept ? { ...json, ...this.marks } : [] });
	}

	rowFailed(itemIndex: number, error: unknown, keys: IDataObject = {}): void {
		this.count('failed');
		if (this.output === 'summary' && !this.failedRowsStay) {
			this.note('failed', { error: message(error) }, { ...keys, item: itemIndex });
			this.outcomes.set(itemIndex, { status: 'done', json: [] });
		} else this.outcomes.set(itemIndex, { status: 'failed', error: error as Error });
	}

	notSent(itemIndex: number): void {
		this.outcomes.set(itemIndex, { status: 'notSent' });
	}

	/** A removal, a deferred removal or a missing entry. */
	unpairedItem(json: IDataObject, keys: IDataObject): void {
		const action = String(json.action);
		this.count(action);
		this.note(action, json, keys);
		if (this.output !== 'summary') this.unpaired.push({ ...json, ...this.marks });
	}

	removalFailed(error: unknown, keys: IDataObject): void {
		this.unpairedItem({ action: 'failed', ...keys, error: message(error) }, keys);
	}

	/** The items that come from no input row, or the summary. */
	finish(emit: (json: IDataObject) => void, head: IDataObject): void {
		for (const json of this.unpaired) emit(json);
		if (this.output !== 'summary') return;
		emit({
			...head,
			counts: { ...this.counts },
			changes: this.changes,
			changesOmitted: this.omitted,
		});
	}

	/** "3 created, 1 updated, …": the five counts always, deferred and missing when there are any. */
	tally(): string {
		return Object.entries(this.counts)
			.map(([action, n]) => `${n} ${action}`)
			.join(', ');
	}

	private count(action: string): void {
		this.counts[action] = (this.counts[action] ?? 0) + 1;
	}

	/** In a summary, an unchanged row is only counted; a change is listed while there is room. */
	private note(action: string, json: IDataObject, keys: IDataObject): void {
		if (this.output !== 'summary' || action === 'unchanged') return;
		if (this.changes.length >= SUMMARY_CHANGES) {
			this.omitted++;
			return;
		}
		const { planned, removeAfter, error, warning } = json;
		this.changes.push({ action, ...keys, ...definedOf({ planned, removeAfter, error, warning }) });
	}
}

function definedOf(values: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
