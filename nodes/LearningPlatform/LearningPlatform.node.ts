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

export class LearningPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Learning Platform',
		name: 'learningPlatform',
		icon: { light: 'file:learningPlatform.svg', dark: 'file:learningPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
