import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { pollUntil } from '../../shared/polling';
import { lmsRequest } from './index';

/** The platform's record of one asynchronous write. */
export interface Transaction extends IDataObject {
	id: string;
	http_method?: string;
	status: string;
	response?: IDataObject;
}

/** Accepted writes answer 202 with the transaction that will carry them out. */
export interface AcceptedWrite {
	message?: string;
	data: Transaction;
}

export async function getTransaction(
	this: IExecuteFunctions,
	itemIndex: number,
	id: string,
): Promise<Transaction> {
	const answer = (await lmsRequest.call(this, itemIndex, {
		method: 'GET',
		path: `/api/developer/v2/request_data/${encodeURIComponent(id)}`,
		safeToRepeat: true,
		action: `Reading transaction ${id}`,
	})) as { data: Transaction };
	return answer.data;
}

export interface WaitSettings {
	timeoutSec: number;
	pollIntervalSec: number;
}

export interface WaitResult {
	transaction: Transaction;
	polls: number;
	waitedMs: number;
}

/**
 * Polls until the transaction leaves `initiated`. Success returns it; any other final status is
 * an API failure with the platform's message; a timeout says which transaction to poll later.
 */
export async function waitForTransaction(
	this: IExecuteFunctions,
	itemIndex: number,
	id: string,
	{ timeoutSec, pollIntervalSec }: WaitSettings,
): Promise<WaitResult> {
	const started = Date.now();
	const outcome = await pollUntil(
		async () => {
			const transaction = await getTransaction.call(this, itemIndex, id);
			return { done: transaction.status !== 'initiated', value: transaction };
		},
		{ timeoutMs: timeoutSec * 1000, intervalMs: pollIntervalSec * 1000 },
	);
	const transaction = outcome.value;
	if (!outcome.done) {
		const timeout = new NodeOperationError(
			this.getNode(),
			`Transaction ${id} was still in progress after ${timeoutSec} s`,
			{
				itemIndex,
				description: `The platform has not finished it yet. Poll it later with Transaction → Wait (or Get) and transaction ID ${id}.`,
			},
		);
		// Continue On Fail puts these on the error item, so the workflow can poll later.
		timeout.context.details = { transactionId: id, status: transaction.status };
		throw timeout;
	}
	if (transaction.status !== 'success') {
		const message =
			typeof transaction.response?.message === 'string'
				? transaction.response.message
				: 'no message';
		const failed = new NodeApiError(this.getNode(), { ...transaction } as JsonObject, {
			itemIndex,
			message: `Transaction ${id} ended with status "${transaction.status}": ${message}`,
			description: JSON.stringify(transaction),
		});
		failed.context.details = { transactionId: id, status: transaction.status };
		throw failed;
	}
	return { transaction, polls: outcome.polls, waitedMs: Date.now() - started };
}
