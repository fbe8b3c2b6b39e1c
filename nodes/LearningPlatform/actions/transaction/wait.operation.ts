import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection } from '../../../shared/form/input';
import type { LmsRun } from '../../transport';
import { waitForTransaction } from '../../transport';
import { operationForm } from '../operationForm';
import { transactionIdProperty, transactionIdSchema } from './transactionId';

export const { description, prepare } = operationForm(
	['transaction', 'wait'],
	[
		transactionIdProperty,
		optionsCollection([
			{
				displayName: 'Poll Interval (Seconds)',
				name: 'pollInterval',
				type: 'number',
				typeOptions: { minValue: 0.1 },
				default: 1,
				description:
					'Wait before the first check; each later wait is 1.5 times the one before (at most 30 s)',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 300,
				description:
					'Give up after this long, checks and their requests included; the error names the transaction so it can be polled later',
			},
		]),
	],
	z.object({
		transactionId: transactionIdSchema,
		options: z
			.object({
				pollInterval: z.number().positive('must be more than 0 seconds').default(1),
				timeout: z
					.number()
					.positive('must be more than 0 seconds')
					.max(24 * 3600, 'must be at most 86400 seconds (a day)')
					.default(300),
			})
			.strict(),
	}),
	(fns, itemIndex) => ({
		transactionId: fns.getNodeParameter('transactionId', itemIndex),
		options: fns.getNodeParameter('options', itemIndex, {}),
	}),
);

export async function execute(
	run: LmsRun,
	input: ReturnType<typeof prepare>,
	itemIndex: number,
): Promise<IDataObject> {
	const { transaction, polls, waitedMs } = await waitForTransaction(
		run,
		itemIndex,
		input.transactionId,
		{
			pollIntervalSec: input.options.pollInterval,
			deadline: run.deadline(input.options.timeout * 1000),
		},
	);
	return { transactionId: transaction.id, ...transaction, polls, waitedMs };
}
