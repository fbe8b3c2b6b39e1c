import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as assignment from './actions/assignment';
import * as course from './actions/course';
import { router } from './actions/router';
import * as transaction from './actions/transaction';
import { searchCourses } from './methods/listSearch';

export class LearningPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Learning Platform',
		name: 'learningPlatform',
		icon: { light: 'file:learningPlatform.svg', dark: 'file:learningPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ { "course:upsert": "Create or update a course", "course:getMany": "Get many courses", "course:archive": "Archive a course", "course:sync": "Sync the course catalog", "assignment:assign": "Assign a course", "assignment:start": "Start a course", "assignment:complete": "Complete a course", "assignment:withdraw": "Withdraw an assignment", "transaction:get": "Get a transaction", "transaction:wait": "Wait for a transaction" }[$parameter["resource"] + ":" + $parameter["operation"]] }}',
		description:
			"Push courses, assign and complete them, and follow the platform's asynchronous transactions",
		defaults: { name: 'Learning Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'learningPlatformOAuth2Api', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Assignment', value: 'assignment' },
					{ name: 'Course', value: 'course' },
					{ name: 'Transaction', value: 'transaction' },
				],
				default: 'course',
			},
			...course.description,
			...assignment.description,
			...transaction.description,
		],
	};

	methods = { listSearch: { searchCourses } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
