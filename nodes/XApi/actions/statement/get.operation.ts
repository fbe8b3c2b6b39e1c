import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput, optionsCollection } from '../../../shared/form/input';
import { statementOutput } from '../../helpers/output';
import { field, STATEMENT_ID_FIELD, statementIdSchema } from '../../helpers/statementInput';
import type { LrsRun } from '../../transport';
import { readStatement } from '../../transport/statements';

const properties: INodeProperties[] = [
	STATEMENT_ID_FIELD,
	...statementOutput.properties,
	optionsCollection([
		field('Voided', 'voided', {
			type: 'boolean',
			default: false,
			description:
				'Whether the statement was voided. A voided statement is only found with this on, and a statement that was not voided only with it off.',
		}),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['statement'], operation: ['get'] } },
	properties,
);

const inputSchema = z.object({
	statementId: statementIdSchema,
	options: z.object({ voided: z.boolean().default(false) }).strict(),
});

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const input = parseItemInput(fns.getNode(), itemIndex, inputSchema, {
		statementId: fns.getNodeParameter('statementId', itemIndex),
		options: fns.getNodeParameter('options', itemIndex, {}),
	});
	return { ...input, output: statementOutput.read(fns, itemIndex, properties) };
}

export async function execute(
	run: LrsRun,
	input: ReturnType<typeof prepare>,
	itemIndex: number,
): Promise<IDataObject> {
	const { statementId, options } = input;
	// A voided statement is only found with `voidedStatementId`.
	const read = await readStatement(
		run,
		statementId,
		options.voided ? { voidedStatementId: statementId } : { statementId },
		`Getting ${options.voided ? 'voided statement' : 'statement'} ${statementId}`,
		itemIndex,
	);
	if (!read.ok) throw read.error;
	return statementOutput.shape(read.statement, input.output);
}
