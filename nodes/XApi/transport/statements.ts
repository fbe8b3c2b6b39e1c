import { type IDataObject, NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import { type LrsRun, tryLrsRequest } from './index';

// Answers as checked (xAPI Communication 2.1): only what the node relies on is required.
const storedStatementShape = z.object({ id: z.string().min(1, 'is missing') }).passthrough();

export const storedIdsShape = z.array(z.string().min(1, 'is empty'));

type Read =
	| { ok: true; statement: IDataObject }
	| { ok: false; status?: number; error: NodeApiError };

/** A store that answers with another statement than the one asked for is not believed; a 404 comes back as a status. */
export async function readStatement(
	run: LrsRun,
	asked: string,
	qs: IDataObject,
	action: string,
	itemIndex?: number,
): Promise<Read> {
	const outcome = await tryLrsRequest(run, {
		method: 'GET',
		qs,
		namesRecord: true,
		action,
		itemIndex,
		answer: { schema: storedStatementShape, is: 'a statement' },
	});
	if (!outcome.ok) return outcome;
	const statement = outcome.body as IDataObject;
	if (String(statement.id).toLowerCase() === asked.toLowerCase()) return { ok: true, statement };
	const error = new NodeApiError(
		run.fns.getNode(),
		{ message: 'unexpected answer' },
		{
			itemIndex,
			message: `Getting statement ${asked} failed (unexpected answer: the record store sent statement ${String(statement.id)})`,
		},
	);
	return { ok: false, error };
}
