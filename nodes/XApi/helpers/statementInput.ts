import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { randomUUID } from 'crypto';
import { z } from 'zod';

import type { Statement } from '../validation';
import { formatIssues, validateStatement } from '../validation';

export type StatementWithId = Statement & { id: string };

/**
 * Checks a statement against xAPI 1.0.3 before anything is sent and gives it an id (unless it
 * has one), so that every attempt to send it, retries included, carries the same id and the
 * record store can never store it twice. The error names the item and each property path.
 */
export function checkedStatement(
	node: INode,
	itemIndex: number,
	statement: unknown,
): StatementWithId {
	const result = validateStatement(statement);
	if (!result.ok) {
		throw new NodeOperationError(
			node,
			`Invalid statement on item ${itemIndex}: ${formatIssues(result.issues)}`,
			{
				itemIndex,
				description: result.issues.map((issue) => `• ${issue.path}: ${issue.message}`).join('\n'),
			},
		);
	}
	const original = statement as Statement;
	// The id goes first so that it is the first thing seen in the output and in the store's logs.
	return { id: original.id ?? randomUUID(), ...original } as StatementWithId;
}

/** A statement ID as a user types or maps it. */
export const statementIdSchema = z
	.string()
	.trim()
	.regex(
		/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
		'must be a statement ID (a UUID like 8f87ccde-bb56-4c2e-ab83-44982ef22df0)',
	);
