import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
