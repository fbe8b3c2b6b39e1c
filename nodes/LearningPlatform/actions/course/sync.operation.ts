import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOutcome, PreparedItem } from '../../../shared/items/operation';
import { parseItemInput } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import { lmsClientKey } from '../../transport';
import type { SyncMemory, SyncRow } from '../../transport/catalogSync';
import { scopeKey } from '../../transport/catalogSync';
import type { CourseValues } from '../../transport/courseContract';
import { EXTERNAL_ID_FIELD } from '../../transport/courseContract';
import { syncCatalog } from '../../transport/syncCatalog';
import { courseInputProperties, readableExternalId, readCourse } from '../common/courseInput';
import { writeOptions, writeOptionsSchema, writeSettings } from '../common/writeOptions';

export const kind = 'batch';

const write = writeOptions('course', ['sync']);

const properties: INodeProperties[] = [
	{
		displayName:
			'The input items are the whole catalog: one item per course. The catalog is listed once; only courses that are new or changed are written, and (with Archive Missing) courses no longer in the input are archived.',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	...courseInputProperties(),
	{
		...write,
		options: [
			{
				displayName: 'Archive Missing',
				name: 'archiveMissing',
				type: 'boolean',
				default: false,
				description:
					'Whether to archive the courses that are in the catalog but not in the input. Archived content cannot be made active again.',
			},
			{
				displayName: 'Max Archive Share (%)',
				name: 'maxArchiveShare',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: 10,
				description:
					'If the sync would archive more than this share of the catalog, nothing at all is written and the run fails saying how many it would archive (a truncated file looks like that)',
			},
			{
				displayName: 'Skip Unchanged',
				name: 'skipUnchanged',
				type: 'boolean',
				default: true,
				description:
					'Whether to leave out courses whose listed fields match and whose other fields match what this node last confirmed. Off, every course is written (a full resync).',
			},
			...(write.options as INodeProperties[]),
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['course'], operation: ['sync'] } },
	properties,
);

const optionsSchema = z.object({
	options: writeOptionsSchema
		.omit({ keepCurrentValues: true })
		.extend({
			skipUnchanged: z.boolean().default(true),
			archiveMissing: z.boolean().default(false),
			maxArchiveShare: z
				.number()
				.min(0, 'must be 0 or more')
				.max(100, 'must be at most 100')
				.default(10),
		})
		.strict(),
});

type SyncOptions = z.infer<typeof optionsSchema>['options'];

interface SyncInput {
	row: SyncRow;
	options: SyncOptions;
}

export function prepare(fns: IExecuteFunctions, itemIndex: number): SyncInput {
	const { options } = parseItemInput(
		fns.getNode(),
		itemIndex,
		optionsSchema,
		{ options: fns.getNodeParameter('options', itemIndex, {}) },
		'Invalid options',
		properties,
	);
	// Without Continue On Fail an invalid row stops the run before anything is sent.
	if (!fns.continueOnFail())
		return { row: rowOf(readCourse(fns, itemIndex), itemIndex), options };
	try {
		return { row: rowOf(readCourse(fns, itemIndex), itemIndex), options };
	} catch (error) {
		// With it, the row still names its course, which is then never archived.
		return { row: { itemIndex, externalId: readableExternalId(fns, itemIndex), error }, options };
	}
}

function rowOf(values: CourseValues, itemIndex: number): SyncRow {
	return { itemIndex, externalId: String(values[EXTERNAL_ID_FIELD]), values };
}

/** Where the node keeps what it remembers, per client: the workflow's static data. */
function memoryOf(run: LmsRun): SyncMemory {
	const fns = run.fns as IExecuteFunctions;
	const data = fns.getWorkflowStaticData('node');
	const all = ((data.syncedCourses as IDataObject | undefined) ??= {}) as Record<
		string,
		SyncMemory
	>;
	return (all[scopeKey(lmsClientKey(run.credentials))] ??= {});
}

export async function execute(
	run: LmsRun,
	items: Array<PreparedItem<SyncInput>>,
	control: { stopAfterFailure: boolean },
): Promise<Map<number, ItemOutcome>> {
	const options = items[0].input.options;
	const fns = run.fns as IExecuteFunctions;
	let reported = -1;
	const result = await syncCatalog(
		run,
		items.map((item) => item.input.row),
		memoryOf(run),
		{
			...options,
			write: () => writeSettings(run, { ...options, keepCurrentValues: false }),
			stopAfterFailure: control.stopAfterFailure,
			progress: (done, total) => {
				// About every tenth of the writes, and the last.
				const step = Math.max(1, Math.ceil(total / 10));
				if (done !== total && done - reported < step) return;
				reported = done;
				fns.sendMessageToUI?.(`Sync Catalog: ${done} of ${total} writes done`);
			},
		},
	);
	const { counts } = result;
	if ('addExecutionHints' in fns) {
		fns.addExecutionHints({
			message: `Sync Catalog: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.archived} archived, ${counts.failed} failed`,
			location: 'outputPane',
		});
		for (const note of result.notes)
			fns.addExecutionHints({ message: note, location: 'outputPane' });
	}
	const outcomes = new Map<number, ItemOutcome>();
	for (const [itemIndex, outcome] of result.rows) {
		outcomes.set(
			itemIndex,
			outcome.status === 'failed'
				? { status: 'failed', error: outcome.error as Error }
				: (outcome as ItemOutcome),
		);
	}
	// One output item per archived course, after the last row that has an output.
	if (result.archived.length > 0) {
		const carrier = [...outcomes.entries()]
			.sort(([a], [b]) => b - a)
			.find(([, o]) => o.status === 'done');
		if (carrier) {
			const [itemIndex, outcome] = carrier as [number, { status: 'done'; json: IDataObject }];
			outcomes.set(itemIndex, { status: 'done', json: [outcome.json, ...result.archived] });
		}
	}
	return outcomes;
}
