import type {
	IExecuteFunctions,
	INode,
	INodeProperties,
	INodePropertyCollection,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';
import { z } from 'zod';

import { issueMessage, issuePath } from '../request/body';

type FormEntry = INodeProperties | INodePropertyCollection;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's path in the form's words ("Prices → Amount (price 1)"); undefined off the form. */
function formLabel(
	form: readonly INodeProperties[],
	path: ReadonlyArray<string | number>,
): string | undefined {
	const labels: string[] = [];
	let level: readonly FormEntry[] = form;
	let entry: string | undefined;
	let index = '';
	for (const key of path) {
		if (typeof key === 'number') {
			if (!entry || labels.length === 0) return undefined;
			index = ` (${entry} ${key + 1})`;
			continue;
		}
		const found =
			level.find((p) => p.name === key) ??
			(labels.length === 0 && path.length === 1 ? findDeep(form, key) : undefined);
		if (!found) return undefined;
		level = childrenOf(found);
		// A fixedCollection's entry kind ("price"): named with the index, not as a step.
		if ('values' in found) entry = found.displayName.toLowerCase();
		else labels.push(found.displayName);
	}
	// The index belongs to the field inside the entry: "Prices → Amount (price 1)".
	return labels.length ? labels.join(' → ') + index : undefined;
}

function childrenOf(entry: FormEntry): readonly FormEntry[] {
	if ('values' in entry) return entry.values;
	return (entry.options ?? []).filter(
		(o): o is FormEntry => typeof o === 'object' && 'displayName' in o && !('value' in o),
	);
}

/** A property anywhere in a form, by name (for inputs read flat from nested parameters). */
function findDeep(level: readonly FormEntry[], name: string): INodeProperties | undefined {
	for (const entry of level) {
		if (entry.name === name && !('values' in entry)) return entry;
		const found = findDeep(childrenOf(entry), name);
		if (found) return found;
	}
	return undefined;
}

/** Checked before sending; the error names the item and each bad field in the form's words. */
export function parseItemInput<Output, Input = Output>(
	node: INode,
	itemIndex: number,
	schema: ZodType<Output, ZodTypeDef, Input>,
	input: unknown,
	what = 'Invalid input',
	form?: readonly INodeProperties[],
): Output {
	const result = schema.safeParse(input);
	if (result.success) return result.data;
	const fields = new Map<string, string>();
	for (const issue of result.error.issues) {
		const path = issuePath(issue.path);
		if (fields.has(path)) continue;
		const label = (form && formLabel(form, issue.path)) ?? path;
		fields.set(path, label ? `${label}: ${issueMessage(issue)}` : issueMessage(issue));
	}
	const lines = [...fields.values()];
	throw new NodeOperationError(node, `${what} on item ${itemIndex}: ${lines.join('; ')}`, {
		itemIndex,
		description: lines.map((line) => `• ${line}`).join('\n'),
	});
}

/** A lone UTF-16 surrogate: UTF-8 sends every one as U+FFFD, so different ids would become one. */
const LONE_SURROGATE = /\p{Cs}/u;

export const NOT_WELL_FORMED =
	'holds half of a character (a lone UTF-16 surrogate, as left when an emoji is cut in two), which cannot be sent as it is: different values would reach the server as one';

export function wellFormed(value: string | readonly string[] | undefined): boolean {
	if (value === undefined) return true;
	return typeof value === 'string' ? !LONE_SURROGATE.test(value) : value.every(wellFormed);
}

/** A comma-separated list as n8n users type it, or an array an expression produced. */
export const listOfStrings = z
	.union(
		[z.string(), z.array(z.union([z.string(), z.number()]))],
		oneMessage('must be a list of text (or comma-separated text)'),
	)
	.transform((value) =>
		(Array.isArray(value) ? value.map(String) : value.split(','))
			.map((entry) => entry.trim())
			.filter((entry) => entry.length > 0),
	)
	.refine(wellFormed, NOT_WELL_FORMED);

/** zod 3.25 reads `errorMap`, zod 4 `error` (each ignores the other's), so both are given. */
export function typeMessages(
	missing: string | undefined,
	wrongType: string | undefined | ((input: unknown) => string | undefined),
) {
	const error = (issue: { code?: string; input?: unknown }) =>
		issue.code !== 'invalid_type'
			? undefined
			: issue.input === undefined
				? missing
				: typeof wrongType === 'function'
					? wrongType(issue.input)
					: wrongType;
	return {
		error,
		errorMap: (issue: { code: string }, ctx: { data: unknown; defaultError: string }) => ({
			message: error({ code: issue.code, input: ctx.data }) ?? ctx.defaultError,
		}),
	};
}

export function oneMessage(message: string) {
	return { errorMap: () => ({ message }), error: () => message };
}

/** Ids go into paths and bodies: bounded, and never a path step of their own. */
const MAX_ID_LENGTH = 255;

export const safeId = z
	.string(typeMessages('is required', 'must be text'))
	.trim()
	.min(1, 'is required')
	.max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
	.refine((value) => value !== '.' && value !== '..', 'cannot be "." or ".."')
	// eslint-disable-next-line no-control-regex
	.refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'cannot contain control characters')
	.refine(wellFormed, NOT_WELL_FORMED);

function collection(displayName: string, name: string, placeholder: string) {
	return (options: INodeProperties[], extra: Partial<INodeProperties> = {}): INodeProperties => ({
		displayName,
		name,
		type: 'collection',
		placeholder,
		default: {},
		...extra,
		options,
	});
}

export const optionsCollection = collection('Options', 'options', 'Add option');
export const additionalFields = collection('Additional Fields', 'additionalFields', 'Add field');

/** An operation's Options collection, read and checked as a whole. */
export function readOptions<T>(
	fns: IExecuteFunctions,
	itemIndex: number,
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
	properties: INodeProperties[],
): T {
	return parseItemInput(
		fns.getNode(),
		itemIndex,
		z.object({ options: schema }),
		{ options: fns.getNodeParameter('options', itemIndex, {}) },
		'Invalid options',
		properties,
	).options as T;
}
