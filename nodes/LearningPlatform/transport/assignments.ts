import type { IDataObject } from 'n8n-workflow';

import type { LmsRun, WriteSettings } from './index';
import { EXTERNAL_ID_FIELD, postWrite } from './index';

export const USER_COURSES_PATH = '/api/developer/v2/user_courses.json';

/** The API's status value for each operation (`Started` is capitalised, as documented). */
export const STATUS_BY_OPERATION = {
	assign: 'assigned',
	withdraw: 'withdraw',
	complete: 'completed',
	start: 'Started',
} as const;

export type AssignmentOperation = keyof typeof STATUS_BY_OPERATION;

export interface Assignment {
	operation: AssignmentOperation;
	email: string;
	externalId: string;
	dueDate?: string;
	assignedDate?: string;
	endDate?: string;
}

export async function sendAssignment(
	run: LmsRun,
	itemIndex: number,
	assignment: Assignment,
	write: WriteSettings,
): Promise<IDataObject> {
	const status = STATUS_BY_OPERATION[assignment.operation];
	const body: IDataObject = {
		email_id: assignment.email,
		[EXTERNAL_ID_FIELD]: assignment.externalId,
		status,
	};
	if (assignment.dueDate) body.due_date = assignment.dueDate;
	if (assignment.assignedDate) body.assigned_date = assignment.assignedDate;
	if (assignment.endDate) body.end_date = assignment.endDate;
	return await postWrite(run, itemIndex, {
		path: USER_COURSES_PATH,
		body,
		action: `Setting "${assignment.externalId}" to ${status} for ${assignment.email}`,
		...write,
		echo: {
			email: assignment.email,
			externalId: assignment.externalId,
			assignmentStatus: status,
		},
	});
}
