import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection, safeId } from '../../shared/form/input';
import type { PoolPlace } from '../../shared/pacing/time';
import type { LmsRun, WriteSettings } from '../transport';

/** Fields operations of both resources share: the course picker, and the Options of every write. */

/** A plain string (from an expression or an older workflow) is still accepted. */
export function coursePicker(description: string): INodeProperties {
	return {
		displayName: 'Course',
		name: 'externalId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a course…',
				typeOptions: { searchListMethod: 'searchCourses', searchable: true },
			},
			{
				displayName: 'By External ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. onboarding-101',
			},
		],
	};
}

/** Upsert's External ID is a picker too, so switching operations never moves a picker's value. */
export function pickedCourse(fns: IExecuteFunctions, itemIndex: number): unknown {
	return fns.getNodeParameter('externalId', itemIndex, '', { extractValue: true });
}

/** `options` of every write (the platform accepts writes asynchronously), and their settings. */
export function writeOptions(own: INodeProperties[] = []): INodeProperties {
	return optionsCollection([
		...own,
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
	]);
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

/** A write on the picked course (Archive, the assignment operations): its shape and raw values. */
export const courseWriteShape = { externalId: safeId, options: writeOptionsSchema };

export const readCourseWrite = (fns: IExecuteFunctions, itemIndex: number) => ({
	externalId: pickedCourse(fns, itemIndex),
	options: fns.getNodeParameter('options', itemIndex, {}),
});

/** The deadline counts from the item's first request; its pool place is given back once accepted. */
export function writeSettings(
	run: LmsRun,
	options: WriteOptions,
	place?: PoolPlace,
): WriteSettings {
	return {
		whileWaiting: place && (() => place.release()),
		waitForCompletion: options.waitForCompletion,
		deadline: run.deadline(options.timeout * 1000, { startsAtFirstSlot: true }),
	};
}
