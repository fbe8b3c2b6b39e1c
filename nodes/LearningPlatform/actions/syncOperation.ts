import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOutcome, PreparedItem } from '../../shared/items/operation';
import type { BatchControl } from '../../shared/items/resources';
import type { SyncContract, SyncOutput, SyncRow } from '../../shared/sync/contract';
import { runSyncReported } from '../../shared/sync/engine';
import type { Memory } from '../../shared/sync/memory';
import { openMemory } from '../../shared/sync/memory';
import type { LmsRun, WriteSettings } from '../transport';
import { lmsClientKey } from '../transport/credential';
import { scopeKey } from '../transport/syncs';
import type { WriteOptions } from './fields';
import { readOptions, typeMessages } from '../../shared/form/input';
import { writeOptionsSchema, writeSettings } from './fields';
import type { SyncFormWords } from './syncOptions';
import { MAX_GRACE_DAYS, SHARE_SHOWN, syncOptionsProperty } from './syncOptions';

interface SyncOperationParts<V, L> extends SyncFormWords {
	/** Where the sync's memory is kept in the node's static data, and its layout. */
	slot: string;
	grouped: boolean;
	contract: (run: LmsRun, write: () => WriteSettings, memory: Memory) => SyncContract<V, L>;
}

export type SyncOptionValues = Omit<WriteOptions, 'keepCurrentValues'> & {
	skipUnchanged: boolean;
	dryRun: boolean;
	maxWritesPerRun: number;
	approvedPlan: string;
	memoryKey: string;
	output: SyncOutput;
	[option: string]: unknown;
};

/** A sync operation's Options and its `execute`: its memory for this client, its contract, the engine. */
export function syncOperation<V, L>(words: SyncOperationParts<V, L>) {
	const remove = words.remove.toLowerCase();
	const missing = `${remove}Missing`;
	const share = `max${words.remove}Share`;
	const after = `${remove}AfterDays`;
	const property = syncOptionsProperty(words);
	const atLeastZero = 'must be 0 or more';
	const century = `must be at most ${MAX_GRACE_DAYS} days (a century)`;
	const schema = writeOptionsSchema
		.omit({ keepCurrentValues: true })
		.extend({
			skipUnchanged: z.boolean().default(true),
			dryRun: z.boolean().default(false),
			[missing]: z.boolean().default(false),
			[share]: z
				.number()
				.min(0, 'must be 0 or more')
				.max(100, 'must be at most 100')
				.default(SHARE_SHOWN),
			// Beyond it a removal's time would not be a date; a century is past any grace a roster needs.
			[after]: z
				// zod 4 refuses ±Infinity as a type (zod 3 lets it reach min/max): one message in both.
				.number(
					typeMessages(undefined, (input) =>
						input === -Infinity ? atLeastZero : input === Infinity ? century : undefined,
					),
				)
				.min(0, atLeastZero)
				.max(MAX_GRACE_DAYS, century)
				.default(0),
			maxWritesPerRun: z
				.number()
				.int('must be a whole number')
				.min(0, 'must be 0 or more')
				.default(0),
			approvedPlan: z.string().trim().default(''),
			memoryKey: z.string().trim().default(''),
			output: z.enum(['all', 'changes', 'summary']).default('all'),
		})
		.strict() as unknown as z.ZodType<SyncOptionValues, z.ZodTypeDef, unknown>;
	const execute = async (
		run: LmsRun,
		items: Array<PreparedItem<SyncRow<V>>>,
		control: BatchControl,
	): Promise<Map<number, ItemOutcome>> => {
		const fns = run.fns as IExecuteFunctions;
		// The run's settings, read once: per-item values would make one plan of several runs.
		refuseEmptySafeties(fns, property, [
			'dryRun',
			share,
			after,
			'maxWritesPerRun',
			'approvedPlan',
			'memoryKey',
		]);
		const chosen = readOptions(fns, 0, schema, [property]);
		const node = fns.getNode();
		const memory = openMemory(fns, {
			owner: `${fns.getWorkflow().id}|${chosen.memoryKey ? `key ${chosen.memoryKey}` : `node ${fns.getNode().name}`}`,
			slot: words.slot,
			scope: scopeKey(lmsClientKey(run.credentials)),
			grouped: words.grouped,
			sharedKey: chosen.memoryKey || undefined,
			node: { id: node.id, name: node.name },
		});
		const write = () => writeSettings(run, { ...chosen, keepCurrentValues: false });
		// A row that could not even be read names nothing: then nothing may be removed.
		const unread = control.unprepared.map((itemIndex): SyncRow<V> => ({ itemIndex }));
		return await runSyncReported(
			fns,
			words.contract(run, write, memory),
			[...items.map((item) => item.input), ...unread],
			memory,
			{
				skipUnchanged: chosen.skipUnchanged,
				removeMissing: chosen[missing] as boolean,
				maxRemoveShare: chosen[share] as number,
				dryRun: chosen.dryRun,
				maxWritesPerRun: chosen.maxWritesPerRun,
				removeAfterDays: chosen[after] as number,
				approvedPlan: chosen.approvedPlan,
				memoryKey: chosen.memoryKey,
				output: chosen.output,
			},
			{ ...control, run },
		);
	};
	return { property, schema, execute };
}

const isNothing = (value: unknown) =>
	value === undefined ||
	value === null ||
	(typeof value === 'string' && value.trim() === '') ||
	(typeof value === 'number' && Number.isNaN(value));

/**
 * An option that keeps a night safe (a dry run, a bound, a grace, the share, the approval, the
 * memory), set by an expression that gives nothing, is an error: n8n drops such a value, and its
 * default (a real run, no bound, at once, …) would turn the safety off.
 */
function refuseEmptySafeties(fns: IExecuteFunctions, property: INodeProperties, names: string[]) {
	const raw = fns.getNode().parameters.options;
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
	const set = raw as IDataObject;
	const resolved = fns.getNodeParameter('options', 0, {}) as IDataObject;
	const empty = names.filter(
		(name) =>
			typeof set[name] === 'string' &&
			(set[name] as string).startsWith('=') &&
			isNothing(resolved[name]),
	);
	if (empty.length === 0) return;
	const label = (name: string) =>
		`Options → ${(property.options as INodeProperties[]).find((o) => o.name === name)?.displayName ?? name}`;
	const lines = empty.map((name) => `${label(name)}: its expression gave no value`);
	throw new NodeOperationError(fns.getNode(), `Invalid options on item 0: ${lines.join('; ')}`, {
		itemIndex: 0,
		description: `${lines.map((line) => `• ${line}`).join('\n')}\nA safety option set by an expression never falls back to its default: make the expression give a value (for example with ?? and the value you mean), or remove it. Nothing was written.`,
	});
}

/** Without Continue On Fail an invalid row stops the run before anything is sent; with it, the row still names its entry, which is then never removed. */
export function syncRow<V>(
	fns: IExecuteFunctions,
	itemIndex: number,
	read: (fns: IExecuteFunctions, itemIndex: number) => { id: string; values: V },
	named: (fns: IExecuteFunctions, itemIndex: number) => string | undefined,
): SyncRow<V> {
	if (!fns.continueOnFail()) return { itemIndex, ...read(fns, itemIndex) };
	try {
		return { itemIndex, ...read(fns, itemIndex) };
	} catch (error) {
		let id: string | undefined;
		try {
			id = named(fns, itemIndex);
		} catch {
			// Not even its id can be read: the engine then removes nothing this run.
		}
		return { itemIndex, id, error };
	}
}
