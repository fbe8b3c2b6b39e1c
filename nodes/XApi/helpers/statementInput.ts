import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const statementIdSchema = z
	.string()
	.trim()
	.regex(UUID, 'must be a statement ID (a UUID like 8f87ccde-bb56-4c2e-ab83-44982ef22df0)');

/** A form field, text unless `more` says otherwise. */
export function field<T extends Partial<INodeProperties> & Record<string, unknown>>(
	displayName: string,
	name: string,
	more?: T,
) {
	return { displayName, name, type: 'string', default: '', ...more } as INodeProperties & T;
}

export const STATEMENT_ID_FIELD = field('Statement ID', 'statementId', {
	required: true,
	placeholder: '8f87ccde-bb56-4c2e-ab83-44982ef22df0',
});
