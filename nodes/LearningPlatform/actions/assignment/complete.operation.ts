import { assignmentOperation } from './assignmentFields';

export const { description, prepare, execute } = assignmentOperation(
	'complete',
	[
		{
			displayName: 'End Date',
			name: 'endDate',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'YYYY-MM-DD',
			description:
				'The day the learner completed the course, as YYYY-MM-DD (e.g. {{ $now.toFormat("yyyy-MM-dd") }})',
		},
	],
	(fns, itemIndex) => ({ endDate: fns.getNodeParameter('endDate', itemIndex, '') || undefined }),
);
