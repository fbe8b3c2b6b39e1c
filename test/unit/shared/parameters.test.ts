import type { IExecuteFunctions, INodeParameters, INodeProperties } from 'n8n-workflow';

import { LearningPlatform } from '../../../nodes/LearningPlatform/LearningPlatform.node';
import { itemParameters } from '../../../nodes/shared/items/parameters';
import { XApi } from '../../../nodes/XApi/XApi.node';

function fakeFunctions(parameters: INodeParameters, items: Array<Record<string, unknown>>) {
	const getNodeParameter = jest.fn((name: string, itemIndex: number, fallback?: unknown) => `n8n:${name}:${itemIndex}:${JSON.stringify(parameters[name] ?? fallback)}`);
	const fns = {
		getNode: () => ({ parameters }),
		getInputData: () => items.map((json) => ({ json })),
		getNodeParameter,
		continueOnFail: () => true,
	} as unknown as IExecuteFunctions;
	return { fns, getNodeParameter };
}

describe('itemParameters', () => {
	test('a parameter without expressions is read from n8n once for all items', () => {
		const { fns, getNodeParameter } = fakeFunctions({ options: { timeout: 30 } }, [{}, {}, {}]);
		const reader = itemParameters(fns);
		const values = [0, 1, 2].map((i) => reader.getNodeParameter('options', i, {}));
		expect(new Set(values).size).toBe(1);
		expect(getNodeParameter).toHaveBeenCalledTimes(1);
		// A different fallback or extraction is a different read.
		reader.getNodeParameter('options', 0, { other: true });
		expect(getNodeParameter).toHaveBeenCalledTimes(2);
	});

	test('each item gets its own copy of a fixed collection, so one item changing it cannot reach the next', () => {
		const { fns } = fakeFunctions({ options: { timeout: 30 } }, [{}, {}]);
		const asN8n = fns as unknown as { getNodeParameter: jest.Mock };
		asN8n.getNodeParameter.mockImplementation(() => ({ timeout: 30, tags: ['a'] }));
		const reader = itemParameters(fns);
		const first = reader.getNodeParameter('options', 0, {}) as { tags: string[] };
		first.tags.push('changed by item 0');
		expect(reader.getNodeParameter('options', 1, {})).toEqual({ timeout: 30, tags: ['a'] });
		expect(asN8n.getNodeParameter).toHaveBeenCalledTimes(1);
	});

	test('a mapping that only reads a plain field of the item is read from the item', () => {
		const { fns, getNodeParameter } = fakeFunctions({ name: '={{ $json.name }}', url: '={{$json.url}}' }, [
			{ name: 'A', url: 'https://a.test/' },
			{ name: 7, url: true },
		]);
		const reader = itemParameters(fns);
		expect(reader.getNodeParameter('name', 0)).toBe('A');
		expect(reader.getNodeParameter('url', 0)).toBe('https://a.test/');
		expect(reader.getNodeParameter('name', 1)).toBe(7);
		expect(reader.getNodeParameter('url', 1)).toBe(true);
		expect(getNodeParameter).not.toHaveBeenCalled();
	});

	test('anything else goes to n8n: missing or structured values, other expressions, nested names', () => {
		const parameters = {
			name: '={{ $json.name }}',
			url: '={{ $json.url.trim() }}',
			tags: '={{ $json.tags }}',
			additionalFields: { description: '={{ $json.text }}' },
		};
		const { fns, getNodeParameter } = fakeFunctions(parameters, [{ tags: ['a'], text: 'x' }, { name: null }]);
		const reader = itemParameters(fns);
		reader.getNodeParameter('name', 0); // missing: n8n says what that means
		reader.getNodeParameter('name', 1); // null
		reader.getNodeParameter('url', 0);
		reader.getNodeParameter('tags', 0);
		reader.getNodeParameter('additionalFields', 0, {});
		reader.getNodeParameter('additionalFields', 1, {}); // holds an expression: read per item
		reader.getNodeParameter('additionalFields.description', 0);
		expect(getNodeParameter).toHaveBeenCalledTimes(7);
	});

	test('a resource locator gives the item field only when its value is extracted', () => {
		const locator = { __rl: true, mode: 'id', value: '={{ $json.externalId }}' };
		const { fns, getNodeParameter } = fakeFunctions({ externalId: locator }, [{ externalId: 'c-1' }]);
		const reader = itemParameters(fns);
		expect(reader.getNodeParameter('externalId', 0, '', { extractValue: true })).toBe('c-1');
		expect(getNodeParameter).not.toHaveBeenCalled();
		reader.getNodeParameter('externalId', 0, '');
		expect(getNodeParameter).toHaveBeenCalledTimes(1);
	});

	test("the package's forms keep the reader's assumptions: no validateType, no locator mode that extracts", () => {
		const offending: string[] = [];
		const visit = (properties: unknown[], path: string) => {
			for (const property of properties as Array<INodeProperties & { values?: unknown[] }>) {
				if (typeof property !== 'object' || property === null) continue;
				const here = `${path}/${property.name}`;
				if ('validateType' in property) offending.push(`${here}: validateType`);
				for (const mode of property.modes ?? []) {
					if (mode.extractValue) offending.push(`${here}: mode ${mode.name} extracts`);
				}
				if (Array.isArray(property.options)) visit(property.options, here);
				if (Array.isArray(property.values)) visit(property.values, here);
			}
		};
		for (const node of [new LearningPlatform(), new XApi()]) visit(node.description.properties, node.description.name);
		expect(offending).toEqual([]);
	});
});
