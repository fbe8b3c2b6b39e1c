import type { INodeProperties } from 'n8n-workflow';

import { SUMMARY_CHANGES } from '../../shared/sync/report';
import { writeOptions } from './fields';

/**
 * The words of a sync's form: what it removes and how a builder reads its Options. The form is
 * the builder's only view of the safeties, so it shows the share in force on a fresh node, says
 * next to each number what 0 means, and names the one option that removes data.
 */
export interface SyncFormWords {
	/** Names Archive Missing (`archiveMissing`) and Max Archive Share (`maxArchiveShare`). */
	remove: 'Archive' | 'Withdraw';
	/** What the sync keeps and removes, e.g. "pair". */
	entry: string;
	missingHelp: string;
	missingHint: string;
	shareHelp: string;
	skipHelp: string;
	/** What two real syncs that share a memory do to each other. */
	sharedKeyHarm: string;
}

/** The Options a builder meets on a fresh sync node (the guard's share among them). */
export const SHARE_SHOWN = 10;

/** The longest Archive / Withdraw After Days: 100 years (beyond it a removal's time is no date). */
export const MAX_GRACE_DAYS = 36_500;

/** A sync's Options: what protects first, then what removes, then the rest; 0 explained beside each field. */
export function syncOptionsProperty(words: SyncFormWords): INodeProperties {
	const Remove = words.remove;
	const remove = Remove.toLowerCase();
	const removed = remove === 'archive' ? 'archived' : 'withdrawn';
	const removals = remove === 'archive' ? 'archives' : 'withdrawals';
	const share = `max${Remove}Share`;
	const shareName = `Max ${Remove} Share`;
	const write = writeOptions();
	return {
		...write,
		// Shown on a fresh form, so the guard a run relies on is in sight.
		default: { [share]: SHARE_SHOWN },
		options: [
			{
				displayName: 'Dry Run (Writes Nothing)',
				name: 'dryRun',
				type: 'boolean',
				default: false,
				description: `Whether to only plan: the output says what a real run would do (each item's action, and the planId of its ${removals}), and whether ${shareName} would refuse it. Nothing is written or remembered, and the platform is not asked whether it would accept the writes. Left on, the node does nothing every night while its executions succeed.`,
			},
			{
				displayName: `Safety: ${shareName}`,
				name: share,
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: SHARE_SHOWN,
				hint: `Percent. 0: nothing ${removed} without an Approved Plan; 100: no limit. Counts only with ${Remove} Missing on.`,
				description: words.shareHelp,
			},
			{
				displayName: `Safety: ${Remove} After Days`,
				name: `${remove}AfterDays`,
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_GRACE_DAYS, numberPrecision: 2 },
				default: 0,
				hint: `0: ${removed} by the first run that misses it`,
				description: `How long one must be missing from every run's input before it is ${removed} (fractions allowed), counted from the first run that missed it; meanwhile it is output as missing, with the time it will be ${removed}, and if it comes back nothing happens. Rides out a bad night.`,
			},
			{
				displayName: 'Safety: Max Writes per Run',
				name: 'maxWritesPerRun',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				hint: '0: no limit',
				description:
					'At most this many writes in one run; the rest of the plan is output as deferred and written by the next runs (a first night spread over several scheduled runs)',
			},
			{
				displayName: 'Approved Plan',
				name: 'approvedPlan',
				type: 'string',
				default: '',
				placeholder: `e.g. {{ $('Plan the night').first().json.planId }}`,
				hint: `The planId of a dry-run node with the same options. Used only above ${shareName}.`,
				description: `Lets one reviewed plan past ${shareName}: the planId a dry-run node output, as an expression reading that node. A run that would ${remove} more than the share goes ahead only when its own plan ID is this one, and then makes exactly the reviewed ${removals}; below the share this changes nothing. The ID changes whenever the ${removals} change, and is spent once they are carried out. The dry-run node needs the same ${Remove} Missing, ${Remove} After Days, ${shareName} and Memory Key as this node, or its plan never matches.`,
			},
			{
				displayName: `${Remove} Missing (Removes)`,
				name: `${remove}Missing`,
				type: 'boolean',
				default: false,
				hint: `${words.missingHint} Guarded by ${shareName}: ${SHARE_SHOWN} % unless set.`,
				description: words.missingHelp,
			},
			{
				displayName: 'Skip Unchanged',
				name: 'skipUnchanged',
				type: 'boolean',
				default: true,
				description: words.skipHelp,
			},
			{
				displayName: 'Memory Key',
				name: 'memoryKey',
				type: 'string',
				default: '',
				hint: 'Two real syncs must never share a key. A copied node keeps its key.',
				description: `Sync nodes of this workflow with the same key share one memory of what was written and confirmed: give a dry-run node the key of the real node it plans for, so it plans from what that node remembers. Never give two real syncs the same key: ${words.sharedKeyHarm}. Empty: this node's own memory.`,
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'All',
						value: 'all',
						description: `One item per input item (its action), and one per ${removed}, missing or deferred ${words.entry}`,
					},
					{
						name: 'Changes',
						value: 'changes',
						description: 'As All, without the unchanged items',
					},
					{
						name: 'Summary',
						value: 'summary',
						description: `One item instead of all the others: counts per action, planId, needsApproval and the changes (at most ${SUMMARY_CHANGES.toLocaleString('en-US')}). A failed row is listed in it only with Continue On Fail (node Settings); without it, a failed row fails the node.`,
					},
				],
				default: 'all',
				description:
					'What the node outputs. Summary replaces every per-row item with one item: what a review step reads.',
			},
			...(write.options as INodeProperties[]),
		],
	};
}

/** Shown at the top of a sync's form while its Dry Run is on: the node looks like the real one otherwise. */
export function dryRunNotice(entries: string): INodeProperties {
	return {
		displayName: `Dry Run is on: this node only plans. It writes and remembers nothing; its output says what a real run would do with these ${entries}. Turn Dry Run off in Options to sync for real.`,
		name: 'dryRunNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '/options.dryRun': [true] } },
	};
}
