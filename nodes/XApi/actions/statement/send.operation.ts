import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { parseItemInput } from '../../../shared/items/input';
import { checkedStatement, formLabelOf } from '../../helpers/statementInput';
import type { StatementWithId } from '../../helpers/statementInput';
import type { ItemOutcome, PreparedItem } from '../../../shared/items/operation';
import type { LrsRun } from '../../transport';
import { buildStatement, statementFormSchema } from './buildStatement';
import { sendStatements } from './sendStatements';
import { statementFormFields } from './sendFields';

/**
 * 50 statements per request cuts the requests 50-fold against one per item while keeping
 * bodies around 50–100 KB, far below the size limits record stores set, and a rejected batch
 * is narrowed down to its bad statements in at most six halvings.
 */
export const DEFAULT_BATCH_SIZE = 50;
export const MAX_BATCH_SIZE = 500;

const properties: INodeProperties[] = [
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Form Fields',
				value: 'fields',
				description: 'Build the statement from the fields below',
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Send a complete xAPI statement',
			},
		],
		default: 'fields',
	},
	{
		displayName: 'Statement',
		name: 'statement',
		type: 'json',
		required: true,
		// Empty, not a sample: executed unedited, a sample would record a made-up completion.
		default: '',
		hint: 'For example: { "actor": { "name": …, "mbox": "mailto:…" }, "verb": { "id": "http://adlnet.gov/expapi/verbs/completed" }, "object": { "id": "https://…" } }',
		description:
			'One xAPI 1.0.3 statement, as an object or as JSON text. A statement without an ID gets a generated one.',
		displayOptions: { show: { inputMode: ['json'] } },
	},
	...statementFormFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: DEFAULT_BATCH_SIZE,
				description:
					'How many statements to send per request. If the record store rejects a batch because of some statements, the others are still stored and each bad item gets its own error.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['statement'], operation: ['send'] } },
	properties,
);

export const kind = 'batch' as const;

const optionsSchema = z
	.object({
		batchSize: z
			.number()
			.int('must be a whole number')
			.min(1, 'must be at least 1')
			.max(MAX_BATCH_SIZE, `must be at most ${MAX_BATCH_SIZE}`)
			.default(DEFAULT_BATCH_SIZE),
	})
	.strict();

export interface SendInput {
	statement: StatementWithId;
	batchSize: number;
}

export function prepare(fns: IExecuteFunctions, itemIndex: number): SendInput {
	const node = fns.getNode();
	const { batchSize } = parseItemInput(
		node,
		itemIndex,
		optionsSchema,
		fns.getNodeParameter('options', itemIndex, {}),
		'Invalid options',
	);
	const inputMode = fns.getNodeParameter('inputMode', itemIndex, 'fields') as string;
	const fromForm = inputMode !== 'json';
	const statement = fromForm
		? statementFromForm(fns, itemIndex)
		: statementFromJson(fns, itemIndex);
	// Built from the form, a problem is named by the form's field; in JSON, by its path.
	const labels = fromForm ? formLabelOf : undefined;
	return { statement: checkedStatement(node, itemIndex, statement, labels), batchSize };
}

export async function execute(
	run: LrsRun,
	items: Array<PreparedItem<SendInput>>,
	control: { stopAfterFailure: boolean },
): Promise<Map<number, ItemOutcome>> {
	// One batch size for the run: statements of different items travel together.
	const batchSize = items[0]?.input.batchSize ?? DEFAULT_BATCH_SIZE;
	return await sendStatements(run, items, { batchSize, ...control });
}

function statementFromJson(context: IExecuteFunctions, itemIndex: number): unknown {
	const value = context.getNodeParameter('statement', itemIndex) as unknown;
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch (error) {
		throw new NodeOperationError(
			context.getNode(),
			`The statement of item ${itemIndex} is not valid JSON: ${(error as Error).message}`,
			{ itemIndex },
		);
	}
}

function statementFromForm(context: IExecuteFunctions, itemIndex: number): unknown {
	const parameter = (name: string, fallback: unknown = '') =>
		context.getNodeParameter(name, itemIndex, fallback) as unknown;
	const verb = parameter('verb');
	const activityType = parameter('activityType');
	const form = parseItemInput(
		context.getNode(),
		itemIndex,
		statementFormSchema,
		{
			actorName: parameter('actorName'),
			actorEmail: parameter('actorEmail'),
			verb,
			customVerbId: verb === 'custom' ? parameter('customVerbId') : undefined,
			activityId: parameter('activityId'),
			activityType,
			customActivityType: activityType === 'custom' ? parameter('customActivityType') : undefined,
			activityName: parameter('activityName'),
			additionalFields: parameter('additionalFields', {}),
		},
		'Invalid input',
		properties,
	);
	const { statement, badTimestamp } = buildStatement(form, context.getTimezone());
	if (badTimestamp !== undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`Invalid input on item ${itemIndex}: Additional Fields → Timestamp: "${badTimestamp}" is not a date and time`,
			{ itemIndex },
		);
	}
	return statement;
}
