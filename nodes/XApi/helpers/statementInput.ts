import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { randomUUID } from 'crypto';
import { z } from 'zod';

import type { Statement } from '../validation';
import { illFormedAt, NOT_WELL_FORMED } from '../../shared/items/input';
import { formatIssues, formatPath, validateStatement } from '../validation';
import { UUID } from './vocabulary';

export type StatementWithId = Statement & { id: string };

/** The id is fixed before the first attempt; ill-formed text would be stored as U+FFFD, so it is refused. */
export function checkedStatement(
	node: INode,
	itemIndex: number,
	statement: unknown,
	labelOf: (path: string) => string = (path) => path,
): StatementWithId {
	const result = validateStatement(statement);
	const broken = illFormedAt(statement);
	const issues = [
		...(result.ok ? [] : result.issues),
		...(broken ? [{ path: formatPath(broken), message: NOT_WELL_FORMED }] : []),
	].map((issue) => ({ ...issue, path: labelOf(issue.path) }));
	if (issues.length > 0) {
		const description = issues.map((issue) => `• ${issue.path}: ${issue.message}`).join('\n');
		const message = `Invalid statement on item ${itemIndex}: ${formatIssues(issues)}`;
		throw new NodeOperationError(node, message, { itemIndex, description });
	}
	const original = statement as Statement;
	// The id goes first so that it is the first thing seen in the output and in the store's logs.
	return { id: original.id ?? randomUUID(), ...original } as StatementWithId;
}

export const statementIdSchema = z
	.string()
	.trim()
	.regex(UUID, 'must be a statement ID (a UUID like 8f87ccde-bb56-4c2e-ab83-44982ef22df0)');

export const STATEMENT_ID_FIELD: INodeProperties = {
	displayName: 'Statement ID',
	name: 'statementId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '8f87ccde-bb56-4c2e-ab83-44982ef22df0',
};
