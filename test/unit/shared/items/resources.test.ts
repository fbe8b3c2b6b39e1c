/**
 * The nodes as n8n makes their tool variants (`<name>Tool`, read by `@tool` display rules): the
 * description an agent is given, and the Output default, by node version, through n8n-workflow's
 * own parameter resolution.
 */
import type { INode, INodeParameters, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { LearningPlatform } from '../../../../nodes/LearningPlatform/LearningPlatform.node';
import { XApi } from '../../../../nodes/XApi/XApi.node';

/** The node type as n8n 2.x's tool conversion renames it (the rest is n8n's own additions). */
function asTool(type: INodeType): INodeType {
	const description: INodeTypeDescription = {
		...type.description,
		name: `${type.description.name}Tool`,
	};
	return { ...type, description } as INodeType;
}

function resolved(type: INodeType, parameters: INodeParameters, typeVersion: number): INode {
	const values = NodeHelpers.getNodeParameters(
		type.description.properties,
		parameters,
		true,
		false,
		{ typeVersion },
		type.description,
	);
	return {
		id: '1',
		name: 'Tool',
		type: type.description.name,
		typeVersion,
		position: [0, 0],
		parameters: values ?? {},
	};
}

const lmsTool = asTool(new LearningPlatform());
const xApiTool = asTool(new XApi());

test('a tool describes what it needs and what it answers, not only its action', () => {
	const assign = resolved(lmsTool, { resource: 'assignment', operation: 'assign' }, 1.1);
	const description = NodeHelpers.getToolDescriptionForNode(assign, lmsTool);
	expect(description).toMatch(
		/^Assigns a course to a learner by work e-mail and course external ID/,
	);
	expect(description).toMatch(/confirmed/);

	const send = resolved(xApiTool, { resource: 'statement', operation: 'send' }, 1);
	expect(NodeHelpers.getToolDescriptionForNode(send, xApiTool)).toMatch(
		/^Records a learning experience .*Answers with the statement ID/,
	);
});

test('a description the builder wrote is kept', () => {
	const mine = 'Assign onboarding courses only';
	const assign = resolved(
		lmsTool,
		{ resource: 'assignment', operation: 'assign', toolDescription: mine },
		1,
	);
	expect(NodeHelpers.getToolDescriptionForNode(assign, lmsTool)).toBe(mine);
});

test('the node itself has no tool description', () => {
	const node = new LearningPlatform();
	const assign = resolved(node, { resource: 'assignment', operation: 'assign' }, 1.1);
	expect(assign.parameters.toolDescription).toBeUndefined();
});

test.each([
	['a 1.1 tool', lmsTool, 1.1, 'simple'],
	['a tool saved at version 1', lmsTool, 1, 'raw'],
	['the node at 1.1', new LearningPlatform(), 1.1, 'raw'],
	['the node at version 1', new LearningPlatform(), 1, 'raw'],
])('Get Many courses as %s: output by default as expected', (_, type, version, output) => {
	const getMany = resolved(type, { resource: 'course', operation: 'getMany' }, version);
	expect(getMany.parameters.output).toBe(output);
});

test('statement reads as a 1.1 tool answer Simplified by default; a saved choice stays', () => {
	const get = resolved(xApiTool, { resource: 'statement', operation: 'get' }, 1.1);
	expect(get.parameters.output).toBe('simple');
	const raw = resolved(
		xApiTool,
		{ resource: 'statement', operation: 'getMany', output: 'raw' },
		1.1,
	);
	expect(raw.parameters.output).toBe('raw');
});

test('new nodes are created at 1.1', () => {
	expect(new LearningPlatform().description.defaultVersion).toBe(1.1);
	expect(new XApi().description.defaultVersion).toBe(1.1);
});
