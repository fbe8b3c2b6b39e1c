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
					type: 'string',
					default: '',
					placeholder: 'YYYY-MM-DD',
					description:
						'The day of the assignment, as YYYY-MM-DD; the platform uses the day it receives it otherwise',
				},
				{
					displayName: 'Due Date',
					name: 'dueDate',
					type: 'string',
					default: '',
					placeholder: 'YYYY-MM-DD',
					description: 'The day by which the learner should complete the course, as YYYY-MM-DD',
				},
			],
		},
	],
	(fns, itemIndex) => {
		const additional = fns.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		return {
			dueDate: additional.dueDate || undefined,
			assignedDate: additional.assignedDate || undefined,
		};
	},
);
