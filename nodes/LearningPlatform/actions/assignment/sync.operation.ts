import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parseItemInput } from '../../../shared/form/input';
import { assignmentSyncContract, pairId } from '../../transport/assignmentSync';
import { pickedCourse } from '../fields';
import { syncOperation, syncRow } from '../syncOperation';
import { dryRunNotice } from '../syncOptions';
import { assignmentProperties, baseSchema, DATES, readDates } from './assignmentFields';

export const kind = 'batch';

const sync = syncOperation({
	remove: 'Withdraw',
	entry: 'pair',
	missingHint: 'Withdraws what this node assigned that left the input.',
	sharedKeyHarm:
		'each would take the pairs the other assigned as its own and, with Withdraw Missing, withdraw them',
	missingHelp:
		'Whether to withdraw the pairs this node assigned that are no longer in the input. Assignments made any other way are never touched.',
	shareHelp:
		'If the sync would withdraw more than this share of the pairs this node holds as assigned, nothing at all is written and the run fails saying how many it would withdraw (a truncated export looks like that)',
	skipHelp:
		'Whether to leave out pairs this node already assigned with the same dates. Off, every pair is written.',
	slot: 'syncedAssignments',
	grouped: true,
	contract: (run, write, memory) => assignmentSyncContract(run, write, memory),
});

const properties: INodeProperties[] = [
	{
		displayName:
			'The input items are the whole set of assignments: one item per learner and course. Only pairs that are new or whose dates changed are written, and (with Withdraw Missing) pairs this node assigned that left the input are withdrawn.',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	dryRunNotice('pairs'),
	...assignmentProperties([DATES], sync.property),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assignment'], operation: ['sync'] } },
	properties,
);

const schema = baseSchema.omit({ endDate: true, options: true });

function readPair(fns: IExecuteFunctions, itemIndex: number) {
	const values = parseItemInput(
		fns.getNode(),
		itemIndex,
		schema,
		{
			email: fns.getNodeParameter('email', itemIndex),
			externalId: pickedCourse(fns, itemIndex),
			...readDates(fns, itemIndex),
		},
		'Invalid input',
		properties,
	);
	return { id: pairId(values.email, values.externalId), values };
}

/** The pair an invalid row names (its dates may be what failed), where it can be read at all. */
function namedPair(fns: IExecuteFunctions, itemIndex: number): string | undefined {
	const email = fns.getNodeParameter('email', itemIndex);
	const externalId = pickedCourse(fns, itemIndex);
	if (typeof email !== 'string' || typeof externalId !== 'string') return undefined;
	if (email.trim() === '' || externalId.trim() === '') return undefined;
	return pairId(email, externalId.trim());
}

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	return syncRow(fns, itemIndex, readPair, namedPair);
}

export const execute = sync.execute;
