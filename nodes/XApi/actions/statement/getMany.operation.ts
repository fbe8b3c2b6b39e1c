import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection, parseItemInput } from '../../../shared/form/input';
import {
	pagingCeilingProperties,
	pagingCeilingShape,
	pagingLimitsFrom,
	returnAllAndLimit,
} from '../../../shared/form/output';
import { filtersCollection, statementQuery } from '../../helpers/filters';
import { statementOutput } from '../../helpers/output';
import type { LrsRun } from '../../transport';
import { forEachStatementPage, STATEMENTS_PER_PAGE } from '../../transport/statementPages';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	...statementOutput.properties,
	filtersCollection(),
	optionsCollection(pagingCeilingProperties('statements'), {
		displayOptions: { show: { returnAll: [true] } },
	}),
];

/** Return All reads every page within this time. */
const READ_DEADLINE_MS = 5 * 60_000;

export const description = updateDisplayOptions(
	{ show: { resource: ['statement'], operation: ['getMany'] } },
	properties,
);

const inputSchema = (timezone: string) =>
	z.object({
		returnAll: z.boolean(),
		limit: z.number().int('must be a whole number').positive('must be at least 1'),
		filters: statementQuery(timezone),
		options: z.object(pagingCeilingShape).strict(),
	});

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const returnAll = fns.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const input = parseItemInput(fns.getNode(), itemIndex, inputSchema(fns.getTimezone()), {
		returnAll,
		limit: returnAll ? 1 : fns.getNodeParameter('limit', itemIndex, 50),
		filters: fns.getNodeParameter('filters', itemIndex, {}),
		options: returnAll ? fns.getNodeParameter('options', itemIndex, {}) : {},
	});
	return {
		wanted: returnAll ? Infinity : input.limit,
		qs: input.filters,
		limits: pagingLimitsFrom(input.options),
		output: statementOutput.read(fns, itemIndex, properties),
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
			for (const statement of page.slice(0, input.wanted - statements.length))
				statements.push(statementOutput.shape(statement, input.output));
			return statements.length < input.wanted;
		},
	);
	return statements;
}
