import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { z } from 'zod';

import { parseItemInput } from '../../shared/form/input';

export const CONFIRMED_OR_WHY =
	'Answers whether the platform confirmed it (status success, confirmation confirmed) or why not';

/** An operation's form and its item reader, checked by one schema. */
export function operationForm<S extends z.ZodTypeAny>(
	[resource, operation]: [string, string],
	properties: INodeProperties[],
	schema: S,
	read: (fns: IExecuteFunctions, itemIndex: number) => unknown,
) {
	return {
		description: updateDisplayOptions(
			{ show: { resource: [resource], operation: [operation] } },
			properties,
		),
		prepare: (fns: IExecuteFunctions, itemIndex: number): z.output<S> =>
			parseItemInput(
				fns.getNode(),
				itemIndex,
				schema,
				read(fns, itemIndex),
				'Invalid input',
				properties,
			),
	};
}
