import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput } from '../../../shared/items/input';
import type { LmsRun } from '../../transport';
import { READ_DEADLINE_MS } from '../../transport';
import { getTransaction } from '../../transport/transactions';
import { transactionIdProperty, transactionIdSchema } from './transactionId';

const properties: INodeProperties[] = [transactionIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['get'] } },
	properties,
);

const inputSchema = z.object({ transactionId: transactionIdSchema });

type GetInput = z.infer<typeof inputSchema>;

export function prepare(fns: IExecuteFunctions, itemIndex: number): GetInput {
	return parseItemInput(
		fns.getNode(),
		itemIndex,
		inputSchema,
		{
			transactionId: fns.getNodeParameter('transactionId', itemIndex),
		},
		'Invalid input',
		properties,
	);
}

export async function execute(
	run: LmsRun,
	input: GetInput,
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
