import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceProperties, subtitleOf } from '../shared/items/resources';
import { resources, router } from './actions/router';

export class XApi implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'xAPI',
		name: 'xApi',
		icon: { light: 'file:xApi.svg', dark: 'file:xApi.dark.svg' },
		group: ['output'],
		// 1.1: as a tool, reads answer Simplified by default (shared/items/output.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: subtitleOf(resources),
		description:
			'Record learning experiences as xAPI statements in a learning record store, and read or void them',
		defaults: { name: 'xAPI' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'xApiLrsApi', required: true }],
		properties: resourceProperties(resources, 'statement'),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
