import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { z } from 'zod';

import type { PagingLimits } from '../pacing/paging';
import { DEFAULT_MAX_WALK_BYTES, DEFAULT_PAGING_LIMITS } from '../pacing/paging';
import { listOfStrings, oneMessage, parseItemInput } from './input';

/** n8n's usual output choice: an agent or a builder can ask for a few fields, not whole records. */
export type OutputMode = 'raw' | 'simple' | 'fields';

export interface OutputChoice {
	mode: OutputMode;
	fields: string[];
}

export interface OutputForm {
	records: string;
	simplifiedFields: readonly string[];
	selectableFields: readonly string[];
}

/** Tools default to Simplified from version 1.1 on (an agent reads every field); older keep Raw. */
const OUTPUT_DEFAULTS: Array<{ default: OutputMode; displayOptions: IDisplayOptions }> = [
	{ default: 'raw', displayOptions: { hide: { '@tool': [true] } } },
	{ default: 'raw', displayOptions: { show: { '@tool': [true], '@version': [1] } } },
	{
		default: 'simple',
		displayOptions: { show: { '@tool': [true], '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
];

export function outputProperties(form: OutputForm): INodeProperties[] {
	const output: INodeProperties = {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'raw',
		options: [
			{
				name: 'Raw',
				value: 'raw',
				description: `The ${form.records} exactly as the API returns them`,
			},
			{
				name: 'Select Included Fields',
				value: 'fields',
				description: 'Only the fields chosen in Fields',
			},
			{
				name: 'Simplified',
				value: 'simple',
				description: `At most 10 fields: ${form.simplifiedFields.join(', ')}`,
			},
		],
		description: `How much of each of the ${form.records} to return. Simplified suits an AI agent using the node as a tool.`,
	};
	return [
		...OUTPUT_DEFAULTS.map((shown) => ({ ...output, ...shown })),
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			default: [],
			required: true,
			options: [...form.selectableFields]
				.sort((a, b) => a.localeCompare(b))
				.map((field) => ({ name: field, value: field })),
			description:
				'The top-level fields to keep. A field that a record does not have is left out of that record.',
			displayOptions: { show: { output: ['fields'] } },
		},
	];
}

export function outputChoiceSchema(form: OutputForm) {
	const known = new Set(form.selectableFields);
	return z
		.object({
			output: z.enum(
				['raw', 'simple', 'fields'],
				oneMessage('must be Raw, Simplified or Select Included Fields'),
			),
			fields: listOfStrings,
		})
		.superRefine((value, context) => {
			if (value.output !== 'fields') return;
			const unknown = value.fields.filter((field) => !known.has(field));
			const messages: string[] = [];
			if (value.fields.length === 0) messages.push('choose at least one field');
			if (unknown.length > 0) {
				messages.push(
					`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')} (known: ${[...form.selectableFields].join(', ')})`,
				);
			}
			for (const message of messages) {
				context.addIssue({ code: z.ZodIssueCode.custom, path: ['fields'], message });
			}
		})
		.transform(
			(value): OutputChoice => ({
				mode: value.output,
				fields: value.output === 'fields' ? [...new Set(value.fields)] : [],
			}),
		);
}

export function readOutputChoice(
	fns: IExecuteFunctions,
	itemIndex: number,
	schema: ReturnType<typeof outputChoiceSchema>,
	form: readonly INodeProperties[],
): OutputChoice {
	const output = fns.getNodeParameter('output', itemIndex, 'raw');
	const fields = output === 'fields' ? fns.getNodeParameter('fields', itemIndex, []) : [];
	return parseItemInput(
		fns.getNode(),
		itemIndex,
		schema,
		{ output, fields },
		'Invalid input',
		form,
	);
}

export function shapeRecord(
	record: IDataObject,
	choice: OutputChoice,
	simplify: (record: IDataObject) => IDataObject,
): IDataObject {
	if (choice.mode === 'simple') return simplify(record);
	if (choice.mode === 'raw') return record;
	const kept = choice.fields.filter((field) => Object.prototype.hasOwnProperty.call(record, field));
	return Object.fromEntries(kept.map((field) => [field, record[field]]));
}

export function definedOnly(record: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export function pagingCeilingProperties(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Max Pages',
			name: 'maxPages',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1000,
			description:
				'With Return All: stop with an error after this many pages, so a server that never stops paging cannot keep the run going',
		},
		{
			displayName: 'Max Items',
			name: 'maxItems',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50000,
			description: `With Return All: stop with an error after this many ${what}`,
		},
		{
			displayName: 'Max Megabytes',
			name: 'maxMegabytes',
			type: 'number',
			typeOptions: { minValue: 1 },
			// DEFAULT_MAX_WALK_BYTES in megabytes (the linter wants a literal).
			default: 256,
			description:
				'With Return All: stop with an error once the answers take this many megabytes of memory, all pages together, as received and parsed, so that a server sending huge pages cannot exhaust it',
		},
	];
}

const ceiling = z.number().int('must be a whole number').positive('must be at least 1').optional();

export const pagingCeilingShape = { maxPages: ceiling, maxItems: ceiling, maxMegabytes: ceiling };

const MEGABYTE = 1024 * 1024;

export function pagingLimitsFrom(
	options: Partial<Record<keyof typeof pagingCeilingShape, number>>,
): PagingLimits {
	return {
		maxPages: options.maxPages ?? DEFAULT_PAGING_LIMITS.maxPages,
		maxItems: options.maxItems ?? DEFAULT_PAGING_LIMITS.maxItems,
		maxBytes:
			options.maxMegabytes === undefined ? DEFAULT_MAX_WALK_BYTES : options.maxMegabytes * MEGABYTE,
	};
}
