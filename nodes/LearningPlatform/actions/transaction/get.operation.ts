import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { safeId } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import { getTransaction } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport/run';
import { operationForm } from '../common/operationForm';

export const transactionIdProperty: INodeProperties = {
	displayName: 'Transaction ID',
	name: 'transactionId',
	type: 'string',
	required: true,
	// The previous node's write output carries it: the usual case needs no typing.
	default: '={{ $json.transactionId }}',
	description: 'The ID a write operation returned (its output field transactionId)',
};

export const transactionIdSchema = z.union([z.string(), z.number()]).transform(String).pipe(safeId);

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
