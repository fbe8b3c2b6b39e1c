import { runWorkflow } from '../../harness/engine';
test('engine runs a manual trigger + set', async () => {
	const r = await runWorkflow({
		workflow: {
			nodes: [
				{
					id: '1',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: '2',
					name: 'Set',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [200, 0],
					parameters: { mode: 'raw', jsonOutput: '={"a": {{ 1 + 1 }} }' },
				},
			],
			connections: { Start: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
		},
	});
	expect(r.error).toBeUndefined();
	expect(r.outputs('Set')[0].json).toEqual({ a: 2 });
});
