import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection } from '../../../shared/items/operation';
import type { LmsRun } from '../../transport';
import { listedFieldNames, spoken, unlistedFieldNames } from './courseForm';
import type { PoolPlace } from '../../../shared/items/operation';
import type { CourseWrite } from '../../transport/courses';

const KEEP_CURRENT_VALUES: INodeProperties = {
	displayName: 'Keep Current Values',
	name: 'keepCurrentValues',
	type: 'boolean',
	default: false,
	// The field lists come from the field table, so they cannot drift from it.
	description: `Whether to fill the fields left empty with the course's current values from the catalog, where the catalog listing has them (${spoken(listedFieldNames(), 'and')}; not ${spoken(unlistedFieldNames('upsert'))}). The output names the fields kept and those the platform will clear.`,
};

/** `options` of every write: the platform accepts writes asynchronously. */
export function writeOptions(
	resource: string,
	operations: string[],
	{ keepCurrentValues = false }: { keepCurrentValues?: boolean } = {},
): INodeProperties {
	return optionsCollection(
		[
			...(keepCurrentValues ? [KEEP_CURRENT_VALUES] : []),
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 120,
				description:
					'The longest this item may take from its first request: sending the write (retries included) and, when waiting for completion, the wait for its transaction. Waiting for its turn behind other items of the same client is not counted.',
			},
			{
				displayName: 'Wait for Completion',
				name: 'waitForCompletion',
				type: 'boolean',
				default: true,
				description:
					'Whether to wait until the platform has carried out the write: the item then succeeds only if its transaction succeeded. Off, the item says "accepted, not confirmed" and carries the transaction ID to check later.',
			},
		],
		{ displayOptions: { show: { resource: [resource], operation: operations } } },
	);
}

export const writeOptionsSchema = z
	.object({
		waitForCompletion: z.boolean().default(true),
		timeout: z
			.number()
			.positive('must be more than 0 seconds')
			.max(24 * 3600, 'must be at most 86400 seconds (a day)')
			.default(120),
		keepCurrentValues: z.boolean().default(false),
	})
	.strict();

export type WriteOptions = z.infer<typeof writeOptionsSchema>;

/** The deadline counts from the item's first request; its pool place is given back once accepted. */
export function writeSettings(run: LmsRun, options: WriteOptions, place?: PoolPlace): CourseWrite {
	return {
		whileWaiting: place && (() => place.release()),
		waitForCompletion: options.waitForCompletion,
		deadline: run.deadline(options.timeout * 1000, { startsAtFirstSlot: true }),
	};
}

/** What a write answers, as its tool description says it. */
export const CONFIRMED_OR_WHY =
	'Answers whether the platform confirmed it (status success, confirmation confirmed) or why not';
