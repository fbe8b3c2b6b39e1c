/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import { MAX_WORKFLOW_ID_LENGTH, withId } from '../../e2e/lib/workflow-json';

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const shipped = fs
	.readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.map((file) => [file, JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'))] as const);

describe('the example workflows', () => {
	it('are all found', () => {
		expect(shipped.map(([file]) => file)).toEqual(
			expect.arrayContaining(['roster-sync.json', 'roster-review.json', 'catalog-sync.json']),
		);
	});

	// n8n 1.x saves static data (the syncs' memory) only for workflow ids of up to 16 characters:
	// an example imported by `n8n import:workflow` keeps its id, and would forget every night.
	it.each(shipped)('%s has an id n8n 1.x saves static data for', (_file, workflow) => {
		expect(typeof workflow.id).toBe('string');
		expect(workflow.id.length).toBeLessThanOrEqual(MAX_WORKFLOW_ID_LENGTH);
	});

	it('the e2e import refuses a longer id', () => {
		expect(() =>
			withId({ id: 'lpExRosterReview1', name: 'x', nodes: [], connections: {} } as never),
		).toThrow(/longer than 16 characters/);
	});
});
