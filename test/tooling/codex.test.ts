/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

/** The node categories n8n's panel and its community-node checks know. */
const N8N_CATEGORIES = [
	'Data & Storage',
	'Finance & Accounting',
	'Marketing & Content',
	'Productivity',
	'Miscellaneous',
	'Sales',
	'Development',
	'Analytics',
	'Communication',
	'Utility',
];

const ROOT = path.resolve(__dirname, '../..');
const codex = (file: string) =>
	JSON.parse(fs.readFileSync(path.join(ROOT, 'nodes', file), 'utf8')) as {
		node: string;
		categories: string[];
		alias: string[];
	};

describe.each([
	[
		'LearningPlatform/LearningPlatform.node.json',
		'learningPlatform',
		['LMS', 'course', 'assignment'],
	],
	['XApi/XApi.node.json', 'xApi', ['xAPI', 'Tin Can', 'LRS', 'learning record store']],
	['XApiTrigger/XApiTrigger.node.json', 'xApiTrigger', ['xAPI', 'Tin Can', 'LRS', 'completion']],
])('%s', (file, nodeName, aliases) => {
	const entry = codex(file);

	test('names the node as n8n loads it from the package', () => {
		expect(entry.node).toBe(`n8n-nodes-learning-platform.${nodeName}`);
	});

	test("has one or two categories, all from n8n's list", () => {
		expect(entry.categories.length).toBeGreaterThanOrEqual(1);
		expect(entry.categories.length).toBeLessThanOrEqual(2);
		for (const category of entry.categories) expect(N8N_CATEGORIES).toContain(category);
	});

	test('keeps the search aliases', () => {
		expect(entry.alias).toEqual(expect.arrayContaining(aliases));
	});
});
