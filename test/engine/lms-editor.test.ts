/**
 * What the editor offers a builder, against the project's sandbox: the course picker (a list
 * search through n8n-core's LoadOptionsContext, and the resource locator in executions), the
 * transaction id taken from the previous node by default, and messages in the form's words.
 */
import { searchList } from '../../harness/engine';
import { useSandbox } from '../helpers/sandbox';
import { LMS_NODE, runNode } from '../helpers/workflows';

const lms = useSandbox();

function credentials() {
	return lms.credentials();
}

async function seed(names: string[]) {
	const run = await runNode({
		credentials: credentials(),
		items: names.map((name, i) => ({ id: `course-${i}`, name })),
		parameters: {
			resource: 'course',
			operation: 'upsert',
			externalId: '={{ $json.id }}',
			name: '={{ $json.name }}',
			url: 'https://learn.test/c',
		},
	});
	expect(run.error).toBeUndefined();
}

const pickerNode = {
	type: LMS_NODE,
	parameters: { resource: 'course', operation: 'archive' },
	credentialType: 'learningPlatformOAuth2Api',
};

describe('the course picker', () => {
	test('lists the catalog by name, searched in any letter case', async () => {
		await seed(['Safety basics', 'SQL foundations', 'Advanced safety']);

		const all = await searchList({
			node: pickerNode,
			method: 'searchCourses',
			credentials: credentials(),
		});
		const safety = await searchList({
			node: pickerNode,
			method: 'searchCourses',
			filter: 'SAFETY',
			credentials: credentials(),
		});

		// The seed writes its courses concurrently, so the catalog's order is not the seed's.
		expect(all.results.map((r) => r.value).sort()).toEqual(['course-0', 'course-1', 'course-2']);
		expect(safety.results).toHaveLength(2);
		expect(safety.results).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ name: 'Safety basics (course-0)', value: 'course-0' }),
				expect.objectContaining({ name: 'Advanced safety (course-2)', value: 'course-2' }),
			]),
		);
		expect(all.paginationToken).toBeUndefined();
	});

	test('a large catalog comes in pages, each continuing where the last stopped', async () => {
		await seed(Array.from({ length: 120 }, (_, i) => `Course ${i}`));

		const first = await searchList({
			node: pickerNode,
			method: 'searchCourses',
			credentials: credentials(),
		});
		const second = await searchList({
			node: pickerNode,
			method: 'searchCourses',
			paginationToken: first.paginationToken,
			credentials: credentials(),
		});

		expect(first.paginationToken).toBeDefined();
		const seen = [...first.results, ...second.results].map((r) => r.value);
		expect(new Set(seen).size).toBe(seen.length);
		expect(seen.length).toBeGreaterThan(first.results.length);
	});

	test.each([
		['picked from the list', { __rl: true, mode: 'list', value: 'course-0' }],
		['typed as an external id', { __rl: true, mode: 'id', value: 'course-0' }],
		['a plain string, as older workflows saved it', 'course-0'],
	])('assign takes the course %s', async (_, externalId) => {
		await seed(['Safety basics']);

		const run = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'assignment',
				operation: 'assign',
				email: 'ada@example.com',
				externalId,
			},
		});

		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ externalId: 'course-0', status: 'success' });
	});
});

test('Transaction → Wait takes the previous node’s transaction id without typing', async () => {
	const write = await runNode({
		credentials: credentials(),
		items: [{ id: 'course-9', name: 'Nine' }],
		parameters: {
			resource: 'course',
			operation: 'upsert',
			externalId: '={{ $json.id }}',
			name: '={{ $json.name }}',
			url: 'https://learn.test/c',
			options: { waitForCompletion: false },
		},
	});

	const wait = await runNode({
		credentials: credentials(),
		items: [write.items[0].json],
		parameters: { resource: 'transaction', operation: 'wait', options: { pollInterval: 0.1 } },
	});

	expect(wait.error).toBeUndefined();
	expect(wait.items[0].json).toMatchObject({
		transactionId: write.items[0].json.transactionId,
		status: 'success',
	});
});
