import { z } from 'zod';

/**
 * The record store's answers, as the node checks them (xAPI 1.0.3, Communication 2.1). Only
 * what the node relies on is required; the rest is passed through untouched.
 */

/** A statement as read back: an object with its id. */
export const storedStatementShape = z.object({ id: z.string().min(1, 'is missing') }).passthrough();

/** GET /statements without an id: a StatementResult. */
export const statementResultShape = z
	.object({
		statements: z.array(z.record(z.string(), z.unknown())),
		more: z.string().optional(),
	})
	.passthrough();

/** POST /statements: the ids of the statements stored, in order. */
export const storedIdsShape = z.array(z.string().min(1, 'is empty'));

export type StatementResult = z.infer<typeof statementResultShape>;
