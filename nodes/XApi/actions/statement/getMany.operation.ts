import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection, parseItemInput } from '../../../shared/form/input';
import {
	outputChoiceSchema,
	readOutputChoice,
	outputProperties,
	pagingCeilingProperties,
	pagingCeilingShape,
	pagingLimitsFrom,
	returnAllAndLimit,
	shapeRecord,
} from '../../../shared/form/output';
import { filterProperties, filtersSchema, statementQuery } from '../../helpers/filters';
import { simplifiedStatement, statementOutputForm } from '../../helpers/output';
import type { LrsRun } from '../../transport';
import { forEachStatementPage, STATEMENTS_PER_PAGE } from '../../transport/statementPages';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	...outputProperties(statementOutputForm),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add filter',
		default: {},
		options: filterProperties({ withTimeAndOrder: true }),
	},
	optionsCollection([...pagingCeilingProperties('statements')], {
		displayOptions: { show: { returnAll: [true] } },
	}),
];

/** Return All reads every page within this time. */
const READ_DEADLINE_MS = 5 * 60_000;

export const description = updateDisplayOptions(
	{ show: { resource: ['statement'], operation: ['getMany'] } },
	properties,
);

const inputSchema = z.object({
	returnAll: z.boolean(),
	limit: z.number().int('must be a whole number').positive('must be at least 1'),
	filters: filtersSchema,
	options: z.object(pagingCeilingShape).strict(),
});

const outputSchema = outputChoiceSchema(statementOutputForm);

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const returnAll = fns.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const input = parseItemInput(fns.getNode(), itemIndex, inputSchema, {
		returnAll,
		limit: returnAll ? 1 : fns.getNodeParameter('limit', itemIndex, 50),
		filters: fns.getNodeParameter('filters', itemIndex, {}),
		options: returnAll ? fns.getNodeParameter('options', itemIndex, {}) : {},
	});
	const output = readOutputChoice(fns, itemIndex, outputSchema, properties);
	const query = statementQuery(input.filters, fns.getTimezone());
	if ('problem' in query) {
		const message = `Invalid input on item ${itemIndex}: ${query.problem}`;
		throw new NodeOperationError(fns.getNode(), message, { itemIndex });
	}
	return {
		wanted: returnAll ? Infinity : input.limit,
		qs: query.qs,
		limits: pagingLimitsFrom(input.options),
		output,
	};
}

export async function execute(
	run: LrsRun,
	input: ReturnType<typeof prepare>,
	itemIndex: number,
): Promise<IDataObject[]> {
	const statements: IDataObject[] = [];
	await forEachStatementPage(
		run,
		{
			qs: { ...input.qs, limit: Math.min(STATEMENTS_PER_PAGE, input.wanted) },
			action: 'Listing statements',
			itemIndex,
			deadline: run.deadline(READ_DEADLINE_MS),
			limits: input.limits,
		},
		(page) => {
			for (const statement of page) {
				if (statements.length >= input.wanted) return false;
				statements.push(shapeRecord(statement, input.output, simplifiedStatement));
			}
			return statements.length < input.wanted;
		},
	);
	return statements;
}
