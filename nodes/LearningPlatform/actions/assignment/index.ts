import type { Resource } from '../../../shared/items/resources';
import type { LmsRun } from '../../transport';
import * as assign from './assign.operation';
import * as complete from './complete.operation';
import * as start from './start.operation';
import * as sync from './sync.operation';
import * as withdraw from './withdraw.operation';
import { CONFIRMED_OR_WHY } from '../operationForm';

export const assignment: Resource<LmsRun> = {
	resource: 'assignment',
	label: 'Assignment',
	defaultOperation: 'assign',
	operations: {
		assign: {
			name: 'Assign',
			description: 'Assign a course to a learner, optionally with a due date',
			action: 'Assign a course',
			toolDescription:
				'Assigns a course to a learner by work e-mail and course external ID, optionally with a due date. ' +
				CONFIRMED_OR_WHY,
			operation: assign,
		},
		start: {
			name: 'Start',
			description: "Mark a learner's course as started",
			action: 'Start a course',
			toolDescription:
				"Marks a learner's course as started, by work e-mail and course external ID. " +
				CONFIRMED_OR_WHY,
			operation: start,
		},
		complete: {
			name: 'Complete',
			description: "Mark a learner's course as completed",
			action: 'Complete a course',
			toolDescription:
				"Marks a learner's course as completed, by work e-mail, course external ID and end date. " +
				CONFIRMED_OR_WHY,
			operation: complete,
		},
		sync: {
			name: 'Sync Assignments',
			description:
				'Make the platform match the whole set of assignments in the input: assign what is new or changed, optionally withdraw what left',
			action: 'Sync assignments',
			dryRunAction: 'Dry run: sync assignments',
			toolDescription:
				'Makes the assignments this node made match the given pairs (work e-mail and course external ID each, optional due date): assigns only what is new or whose dates changed. Answers per pair whether it was assigned, updated or unchanged',
			operation: sync,
		},
		withdraw: {
			name: 'Withdraw',
			description: 'Withdraw a course assignment from a learner',
			action: 'Withdraw an assignment',
			toolDescription:
				'Withdraws a course assignment from a learner, by work e-mail and course external ID. ' +
				CONFIRMED_OR_WHY,
			operation: withdraw,
		},
	},
};
