import { z } from 'zod';

/**
 * The answers the platform documents, as the node checks them. Only what the node relies on
 * is required; everything else the platform adds is passed through untouched.
 */

/** A transaction: `id` and `status` always; `response` holds the platform's message later. */
export const transactionShape = z
	.object({
		id: z.string().min(1, 'is missing'),
		status: z.string().min(1, 'is missing'),
		http_method: z.string().optional(),
		response: z.record(z.string(), z.unknown()).nullable().optional(),
	})
	.passthrough();

/** What an accepted write answers (202): a message and the transaction that will carry it out. */
export const acceptedWriteShape = z
	.object({ message: z.string().optional(), data: transactionShape })
	.passthrough();

/** GET request_data/{id}: the transaction under `data`. */
export const transactionAnswerShape = z
	.object({ response: z.unknown().optional(), data: transactionShape })
	.passthrough();

/** One page of the course list: `{data: [...], total_count}`. */
export const coursePageShape = z
	.object({
		data: z.array(z.record(z.string(), z.unknown())),
		total_count: z.number().int().nonnegative().optional(),
	})
	.passthrough();

export type Transaction = z.infer<typeof transactionShape>;
export type AcceptedWrite = z.infer<typeof acceptedWriteShape>;
export type CoursePage = z.infer<typeof coursePageShape>;
