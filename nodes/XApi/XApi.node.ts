import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import * as statement from './actions/statement';

export class XApi implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'xAPI',
		name: 'xApi',
		icon: { light: 'file:xApi.svg', dark: 'file:xApi.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Record learning experiences as xAPI statements in a learning record store, and read or void them',
		defaults: { name: 'xAPI' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'xApiLrsApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Statement', value: 'statement' }],
				default: 'statement',
			},
			...statement.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
