import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import type { LmsRun } from '../../transport';
import { getTransaction, READ_DEADLINE_MS } from '../../transport';
import { operationForm } from '../operationForm';
import { transactionIdProperty, transactionIdSchema } from './transactionId';

export const { description, prepare } = operationForm(
	['transaction', 'get'],
	[transactionIdProperty],
	z.object({ transactionId: transactionIdSchema }),
	(fns, itemIndex) => ({ transactionId: fns.getNodeParameter('transactionId', itemIndex) }),
);

export async function execute(
	run: LmsRun,
	input: { transactionId: string },
	itemIndex: number,
): Promise<IDataObject> {
	const transaction = await getTransaction(
		run,
		itemIndex,
		input.transactionId,
		run.deadline(READ_DEADLINE_MS),
	);
	return { transactionId: transaction.id, ...transaction };
}
