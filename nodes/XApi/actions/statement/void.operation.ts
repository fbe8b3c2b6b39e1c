import { type IExecuteFunctions, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput } from '../../../shared/form/input';
import { field, STATEMENT_ID_FIELD, statementIdSchema } from '../../helpers/statementInput';
import { VOIDED_VERB } from '../../validation';
import { sendStatements } from '../../transport/delivery';
import { actorFields, checkedStatement } from './statementForm';

const properties = [
	field(
		'Voiding cannot be undone: the statement stays in the record store but is marked invalid and no longer returned by Get or Get Many (Get finds it with the Voided option)',
		'voidNotice',
		{ type: 'notice' },
	),
	{ ...STATEMENT_ID_FIELD, description: 'The ID of the statement to void' },
	...actorFields({
		description: 'Who voids the statement, e.g. the administrator or the integration',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['statement'], operation: ['void'] } },
	properties,
);

export const kind = 'batch' as const;

const inputSchema = z.object({
	statementId: statementIdSchema,
	actorName: z.string().trim().min(1, 'is required'),
	actorEmail: z
		.string()
		.trim()
		.min(1, 'is required')
		.transform((value) => value.replace(/^mailto:/i, '')),
});

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const input = parseItemInput(fns.getNode(), itemIndex, inputSchema, {
		statementId: fns.getNodeParameter('statementId', itemIndex),
		actorName: fns.getNodeParameter('actorName', itemIndex),
		actorEmail: fns.getNodeParameter('actorEmail', itemIndex),
	});
	const voiding = {
		actor: { name: input.actorName, mbox: `mailto:${input.actorEmail}` },
		verb: { id: VOIDED_VERB, display: { 'en-US': 'voided' } },
		object: { objectType: 'StatementRef', id: input.statementId },
	};
	const statement = checkedStatement(fns.getNode(), itemIndex, voiding);
	return { statement, voidedStatementId: input.statementId };
}

export const execute = sendStatements;
