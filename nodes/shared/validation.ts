import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodError, ZodIssue, ZodType, ZodTypeDef } from 'zod';
import { z } from 'zod';

/** `additionalFields.prices[1].amount` from a zod issue path. */
export function issuePath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>(
		(acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
		'',
	);
}

export function describeIssue(issue: ZodIssue, prefix = ''): string {
	const path = issuePath([...(prefix ? [prefix] : []), ...issue.path]);
	return path ? `${path}: ${issue.message}` : issue.message;
}

export function describeZodError(error: ZodError, prefix = ''): string {
	return error.issues.map((issue) => describeIssue(issue, prefix)).join('; ');
}

/**
 * Validates one item's input before anything is sent. The error names the item and each
 * offending field, so a no-code user can find the bad value in the input table.
 */
export function parseItemInput<Output, Input = Output>(
	node: INode,
	itemIndex: number,
	schema: ZodType<Output, ZodTypeDef, Input>,
	input: unknown,
	what = 'Invalid input',
): Output {
	const result = schema.safeParse(input);
	if (result.success) return result.data;
	const fields = result.error.issues.map((issue) => describeIssue(issue));
	throw new NodeOperationError(node, `${what} on item ${itemIndex}: ${fields.join('; ')}`, {
		itemIndex,
		description: fields.map((line) => `• ${line}`).join('\n'),
	});
}

/** A comma-separated list as n8n users type it, or an array an expression produced. */
export const listOfStrings = z
	.union([z.string(), z.array(z.union([z.string(), z.number()]))])
	.transform((value) =>
		(Array.isArray(value) ? value.map(String) : value.split(','))
			.map((entry) => entry.trim())
			.filter((entry) => entry.length > 0),
	);

export const isoDate = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
	.refine((value) => isRealDate(value), 'is not a real calendar date');

export const isoDateTime = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be a date and time as YYYY-MM-DD HH:MM:SS')
	.refine(
		(value) => isRealDate(value.slice(0, 10)) && isRealTime(value.slice(11)),
		'is not a real date and time',
	);

function isRealDate(value: string): boolean {
	const [y, m, d] = value.split('-').map(Number);
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isRealTime(value: string): boolean {
	const [h, min, s] = value.split(':').map(Number);
	return h < 24 && min < 60 && s < 60;
}

/** n8n date pickers give ISO date-times; the API wants plain dates: accept both, send YYYY-MM-DD. */
export const flexibleDate = z
	.string()
	.trim()
	.transform((value) => (/^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value))
	.pipe(isoDate);

/** Likewise for date-times: an ISO value from a date picker becomes YYYY-MM-DD HH:MM:SS. */
export const flexibleDateTime = z
	.string()
	.trim()
	.transform((value) =>
		/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?/.test(value)
			? `${value.slice(0, 10)} ${value.slice(11, 19).padEnd(8, ':00').slice(0, 8)}`
			: value,
	)
	.pipe(isoDateTime);
