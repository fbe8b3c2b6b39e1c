import { z } from 'zod';

import { isHeaderSafe } from '../../shared/request/origin';

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

/** The token endpoint's answer. The token must travel unchanged in a header. */
export const tokenShape = z
	.object({
		access_token: z
			.string()
			.min(1, 'is missing')
			.refine((token) => isHeaderSafe(token, { spaces: false }), {
				message:
					'holds characters that cannot be sent in an HTTP header (spaces, line breaks, control or non-ASCII characters)',
			}),
		token_type: z.string().optional(),
		expires_in: z.number().positive().optional(),
	})
	.passthrough();

export type Transaction = z.infer<typeof transactionShape>;
export type AcceptedWrite = z.infer<typeof acceptedWriteShape>;
export type CoursePage = z.infer<typeof coursePageShape>;
