import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceProperties, subtitleOf } from '../shared/items/resources';
import { resources, router } from './actions/router';
import { searchCourses } from './methods/listSearch';

export class LearningPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Learning Platform',
		name: 'learningPlatform',
		icon: { light: 'file:learningPlatform.svg', dark: 'file:learningPlatform.dark.svg' },
		group: ['transform'],
		// 1.1: as a tool, reads answer Simplified by default (shared/items/output.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: subtitleOf(resources),
		description:
			"Push courses, assign and complete them, and follow the platform's asynchronous transactions",
		defaults: { name: 'Learning Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'learningPlatformOAuth2Api', required: true }],
		properties: resourceProperties(resources, 'course'),
	};

	methods = { listSearch: { searchCourses } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
