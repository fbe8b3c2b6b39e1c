import type { INode, NodeApiError } from 'n8n-workflow';

type Items = typeof import('../../../../nodes/shared/items/results');
type Workflow = typeof import('n8n-workflow');

const node = (onError?: INode['onError']): INode => ({
	id: '1',
	name: 'Learning Platform',
	type: 'n8n-nodes-learning-platform.learningPlatform',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	onError,
});

function failure(workflow: Workflow, target: INode): NodeApiError {
	return new workflow.NodeApiError(target, { message: 'User not found' } as never, {
		message: 'User not found (transaction t-1 ended with status "failed")',
		description: 'The platform reported status "failed".',
		httpCode: '409',
	});
}

/**
 * Loads items.ts against an n8n-workflow with or without n8n 2.x's exports, and the error
 * classes it sees (a fresh module registry has its own).
 */
function load(host: 'n8n 1.x' | 'n8n 2.x'): { errorItem: Items['errorItem']; workflow: Workflow } {
	let loaded: { errorItem: Items['errorItem']; workflow: Workflow } | undefined;
	jest.isolateModules(() => {
		if (host === 'n8n 1.x') {
			jest.doMock('n8n-workflow', () => {
				const hostOf1x: Record<string, unknown> = { ...jest.requireActual('n8n-workflow') };
				delete hostOf1x.checkNodesApiVersion;
				return hostOf1x;
			});
		}
		loaded = {
			errorItem: jest.requireActual<Items>('../../../../nodes/shared/items/results').errorItem,
			workflow: jest.requireActual<Workflow>('n8n-workflow'),
		};
	});
	jest.dontMock('n8n-workflow');
	return loaded!;
}

describe('errorItem: the Continue On Fail item, routed on both n8n majors', () => {
	test('n8n 2.x: error and details, which its engine routes to the error output', () => {
		const { errorItem, workflow } = load('n8n 2.x');
		const target = node('continueErrorOutput');
		const item = errorItem(failure(workflow, target), 2, target);
		expect(item.pairedItem).toEqual({ item: 2 });
		expect(item.json).toEqual({
			error: 'User not found (transaction t-1 ended with status "failed")',
			details: { description: 'The platform reported status "failed".', httpCode: '409' },
		});
	});

	test('n8n 1.x with the error output: error and message only, the shape its engine routes', () => {
		const { errorItem, workflow } = load('n8n 1.x');
		const target = node('continueErrorOutput');
		expect(errorItem(failure(workflow, target), 0, target).json).toEqual({
			error: 'User not found (transaction t-1 ended with status "failed")',
			message: 'The platform reported status "failed".',
		});
	});

	test('n8n 1.x with the regular output: details kept (no routing depends on the shape)', () => {
		const { errorItem, workflow } = load('n8n 1.x');
		const target = node('continueRegularOutput');
		expect(errorItem(failure(workflow, target), 0, target).json).toHaveProperty(
			'details.httpCode',
			'409',
		);
	});
});
