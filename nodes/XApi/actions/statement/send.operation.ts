import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import {
	additionalFields,
	optionsCollection,
	isPlainObject,
	NOT_WELL_FORMED,
	parseItemInput,
	wellFormed,
} from '../../../shared/form/input';
import { field } from '../../helpers/statementInput';
import { DEFAULT_BATCH_SIZE, sendStatements } from '../../transport/delivery';
import { statementIdFor } from '../../transport/statementIds';
import {
	checkedStatement,
	formLabelOf,
	IDEMPOTENCY_KEY_FIELD,
	optionalText,
	statementFormFields,
	statementFromForm,
} from './statementForm';

const MAX_BATCH_SIZE = 500;

const properties = [
	field('Input Mode', 'inputMode', {
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Form Fields',
				value: 'fields',
				description: 'Build the statement from the fields below',
			},
			{ name: 'JSON', value: 'json', description: 'Send a complete xAPI statement' },
		],
		default: 'fields',
	}),
	field('Statement', 'statement', {
		type: 'json',
		required: true,
		// Empty, not a sample: executed unedited, a sample would record a made-up completion.
		default: '',
		hint: 'For example: { "actor": { "name": …, "mbox": "mailto:…" }, "verb": { "id": "http://adlnet.gov/expapi/verbs/completed" }, "object": { "id": "https://…" } }',
		description:
			'One xAPI 1.0.3 statement, as an object or as JSON text. A statement without an ID gets a generated one, or one derived from the Idempotency Key.',
		displayOptions: { show: { inputMode: ['json'] } },
	}),
	...statementFormFields,
	additionalFields([IDEMPOTENCY_KEY_FIELD], { displayOptions: { show: { inputMode: ['json'] } } }),
	optionsCollection([
		field('Batch Size', 'batchSize', {
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: DEFAULT_BATCH_SIZE,
			description:
				"How many statements to send per request (default 50; with OAuth2, the platform's push endpoint, one per request unless set: it documents no batches). If the record store rejects a batch because of some statements, the others are still stored and each bad item gets its own error.",
		}),
	]),
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
			.optional(),
	})
	.strict();

const idempotencyKeySchema = z
	.object({ idempotencyKey: optionalText.refine(wellFormed, NOT_WELL_FORMED) })
	.passthrough();

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const node = fns.getNode();
	const { batchSize } = parseItemInput(
		node,
		itemIndex,
		optionsSchema,
		fns.getNodeParameter('options', itemIndex, {}),
		'Invalid options',
	);
	const fromForm = fns.getNodeParameter('inputMode', itemIndex, 'fields') !== 'json';
	const { idempotencyKey } = parseItemInput(
		node,
		itemIndex,
		idempotencyKeySchema,
		fns.getNodeParameter('additionalFields', itemIndex, {}),
		'Invalid input',
		properties,
	);
	const statement = fromForm
		? statementFromForm(fns, itemIndex)
		: statementFromJson(fns, itemIndex);
	const keyed = idempotencyKey !== undefined && isPlainObject(statement);
	// An id given as well is refused: which should win cannot be guessed.
	if (keyed && (statement.id ?? '') !== '') {
		throw new NodeOperationError(
			node,
			`Invalid input on item ${itemIndex}: the statement has a Statement ID and an Idempotency Key; set only one`,
			{
				itemIndex,
				description:
					'The Idempotency Key derives the statement ID from the event, so it cannot be combined with an ID given otherwise. Remove the Statement ID (or the "id" of the JSON statement) to derive it, or remove the Idempotency Key to use that ID.',
			},
		);
	}
	const withId = keyed ? { ...statement, id: statementIdFor(idempotencyKey) } : statement;
	return {
		statement: checkedStatement(node, itemIndex, withId, fromForm ? formLabelOf : undefined),
		batchSize,
		idempotencyKey,
	};
}

export const execute = sendStatements;

function statementFromJson(fns: IExecuteFunctions, itemIndex: number): unknown {
	const value = fns.getNodeParameter('statement', itemIndex) as unknown;
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch (error) {
		throw new NodeOperationError(
			fns.getNode(),
			`The statement of item ${itemIndex} is not valid JSON: ${(error as Error).message}`,
			{ itemIndex },
		);
	}
}
