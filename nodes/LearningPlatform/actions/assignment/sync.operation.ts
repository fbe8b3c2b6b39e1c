import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parseItemInput } from '../../../shared/items/input';
import { assignmentSyncContract, pairId } from '../../transport/assignmentSync';
import { pickedCourse } from '../common/form';
import { syncOperation, syncRow } from '../common/syncOptions';
import { assignmentProperties, baseSchema, DATES, readDates } from './assignmentFields';

export const kind = 'batch';

const sync = syncOperation({
	remove: 'Withdraw',
	missingHelp:
		'Whether to withdraw the pairs this node assigned that are no longer in the input. Assignments made any other way are never touched.',
	shareHelp:
		'If the sync would withdraw more than this share of the pairs this node holds as assigned, nothing at all is written and the run fails saying how many it would withdraw (a truncated export looks like that)',
	skipHelp:
		'Whether to leave out pairs this node already assigned with the same dates. Off, every pair is written.',
	slot: 'syncedAssignments',
	contract: (run, write) => assignmentSyncContract(run, write),
});

const properties: INodeProperties[] = [
	{
		displayName:
			'The input items are the whole set of assignments: one item per learner and course. Only pairs that are new or whose dates changed are written, and (with Withdraw Missing) pairs this node assigned that left the input are withdrawn.',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	...assignmentProperties([DATES], sync.property),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assignment'], operation: ['sync'] } },
	properties,
);

const schema = baseSchema.omit({ endDate: true, options: true });

function readPair(fns: IExecuteFunctions, itemIndex: number, raw: IDataObject) {
	const values = parseItemInput(fns.getNode(), itemIndex, schema, raw, 'Invalid input', properties);
	return { id: pairId(values.email, values.externalId), values };
}

/** The pair an invalid row names, where its email and course can be read at all. */
function namedPair(raw: IDataObject): string | undefined {
	const { email, externalId } = raw;
	if (typeof email !== 'string' || typeof externalId !== 'string') return undefined;
	if (email.trim() === '' || externalId.trim() === '') return undefined;
	return pairId(email, externalId.trim());
}

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const raw: IDataObject = {
		email: fns.getNodeParameter('email', itemIndex) as string,
		externalId: pickedCourse(fns, itemIndex) as string,
		...readDates(fns, itemIndex),
	};
	const chosen = parseItemInput(
		fns.getNode(),
		itemIndex,
		sync.schema,
		fns.getNodeParameter('options', itemIndex, {}),
		'Invalid options',
		properties,
	);
	const row = syncRow(
		fns,
		itemIndex,
		() => readPair(fns, itemIndex, raw),
		() => namedPair(raw),
	);
	return { row, options: chosen };
}

export const execute = sync.execute;
