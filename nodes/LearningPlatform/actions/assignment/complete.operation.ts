import { assignmentOperation } from './assignmentFields';

export const { description, prepare, execute } = assignmentOperation(
	'complete',
	[
		{
			displayName: 'End Date',
			name: 'endDate',
			type: 'dateTime',
			required: true,
			default: '',
			description: 'When the learner completed the course; sent as YYYY-MM-DD',
		},
	],
	function (itemIndex) {
		return { endDate: this.getNodeParameter('endDate', itemIndex, '') || undefined };
	},
);
