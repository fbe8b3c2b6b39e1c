import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { operationDeadline } from '../../transport';
import type { Write } from '../../transport/transactions';
import { postWrite } from '../../transport/transactions';

/** `options` shared by every write: the platform accepts writes asynchronously. */
export function writeOptions(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: operations } },
		options: [
			{
				displayName: 'Wait for Completion',
				name: 'waitForCompletion',
				type: 'boolean',
				default: false,
				description:
					'Whether to wait until the platform has carried out the write (its transaction ends) before passing the item on. Without it the item carries the transaction ID to check later.',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 120,
				description:
					'The longest this item may take: sending the write (retries included) and, when waiting for completion, the wait for its transaction',
			},
		],
	};
}

export const writeOptionsSchema = z
	.object({
		waitForCompletion: z.boolean().default(false),
		timeout: z
			.number()
			.positive('must be more than 0 seconds')
			.max(24 * 3600, 'must be at most 86400 seconds (a day)')
			.default(120),
	})
	.strict();

export type WriteOptions = z.infer<typeof writeOptionsSchema>;

/** Sends a write as its options say: the timeout bounds the whole item, waiting included. */
export async function sendWrite(
	this: IExecuteFunctions,
	itemIndex: number,
	options: WriteOptions,
	write: Pick<Write, 'path' | 'body' | 'action' | 'echo'>,
): Promise<IDataObject> {
	return await postWrite.call(this, itemIndex, {
		...write,
		waitForCompletion: options.waitForCompletion,
		deadline: operationDeadline.call(this, options.timeout * 1000),
	});
}
