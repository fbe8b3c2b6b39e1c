import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { lmsRequest } from '../../transport';
import type { AcceptedWrite } from '../../transport/transactions';
import { waitForTransaction } from '../../transport/transactions';

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
				description: 'How long to wait for the transaction when waiting for completion',
			},
		],
	};
}

export const writeOptionsSchema = z
	.object({
		waitForCompletion: z.boolean().default(false),
		timeout: z.number().positive('must be more than 0 seconds').default(120),
	})
	.strict();

export type WriteOptions = z.infer<typeof writeOptionsSchema>;

/** First check comes after this long; waits then grow by half each time. */
const WRITE_POLL_INTERVAL_SEC = 1;

/** Posts a write, then (if asked) waits for its transaction; the output names both. */
export async function postWrite(
	this: IExecuteFunctions,
	itemIndex: number,
	{
		path,
		body,
		action,
		options,
		echo,
	}: {
		path: string;
		body: IDataObject;
		action: string;
		options: WriteOptions;
		echo: IDataObject;
	},
): Promise<IDataObject> {
	const accepted = (await lmsRequest.call(this, itemIndex, {
		method: 'POST',
		path,
		body,
		// Every write here sets a state keyed by its external id (and email): repeating it
		// after a lost answer has the same effect as sending it once.
		safeToRepeat: true,
		action,
	})) as AcceptedWrite;
	const transaction = accepted?.data ?? ({} as AcceptedWrite['data']);
	const output: IDataObject = {
		...echo,
		transactionId: transaction.id,
		status: transaction.status,
		message: accepted?.message,
	};
	if (!options.waitForCompletion || !transaction.id) return output;
	const done = await waitForTransaction.call(this, itemIndex, String(transaction.id), {
		timeoutSec: options.timeout,
		pollIntervalSec: WRITE_POLL_INTERVAL_SEC,
	});
	return {
		...output,
		status: done.transaction.status,
		message: done.transaction.response?.message ?? output.message,
		transaction: done.transaction,
	};
}
