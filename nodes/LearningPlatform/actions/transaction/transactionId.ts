import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { safeId } from '../../../shared/form/input';

/** The transaction both operations read: as a write's output carries it. */

export const transactionIdProperty: INodeProperties = {
	displayName: 'Transaction ID',
	name: 'transactionId',
	type: 'string',
	required: true,
	// The previous node's write output carries it: the usual case needs no typing.
	default: '={{ $json.transactionId }}',
	description: 'The ID a write operation returned (its output field transactionId)',
};

export const transactionIdSchema = z.union([z.string(), z.number()]).transform(String).pipe(safeId);
