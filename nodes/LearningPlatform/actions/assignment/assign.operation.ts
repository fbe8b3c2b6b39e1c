import type { IDataObject } from 'n8n-workflow';

import { assignmentOperation } from './assignmentFields';

export const { description, prepare, execute } = assignmentOperation(
	'assign',
	[
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add field',
			default: {},
			options: [
				{
					displayName: 'Assigned Date',
					name: 'assignedDate',
					type: 'dateTime',
					default: '',
					description: 'Sent as YYYY-MM-DD',
				},
				{
					displayName: 'Due Date',
					name: 'dueDate',
					type: 'dateTime',
					default: '',
					description: 'Sent as YYYY-MM-DD',
				},
			],
		},
	],
	function (itemIndex) {
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		return {
			dueDate: additional.dueDate || undefined,
			assignedDate: additional.assignedDate || undefined,
		};
	},
);
