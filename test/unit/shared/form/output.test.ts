import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { LearningPlatform } from '../../../../nodes/LearningPlatform/LearningPlatform.node';
import { XApi } from '../../../../nodes/XApi/XApi.node';
import { outputChoiceSchema, shapeRecord } from '../../../../nodes/shared/form/output';

/** The operations whose records have more than 10 fields offer n8n's output choice. */
const OPERATIONS: Array<[string, INodeProperties[], string, string]> = [
	['Course → Get Many', new LearningPlatform().description.properties, 'course', 'getMany'],
	['Statement → Get', new XApi().description.properties, 'statement', 'get'],
	['Statement → Get Many', new XApi().description.properties, 'statement', 'getMany'],
];

function parameter(
	properties: INodeProperties[],
	resource: string,
	operation: string,
	name: string,
) {
	const found = properties.find(
		(p) =>
			p.name === name &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
	if (!found) throw new Error(`no ${name} on ${resource} ${operation}`);
	return found;
}

describe.each(OPERATIONS)('%s', (_label, properties, resource, operation) => {
	const output = parameter(properties, resource, operation, 'output');
	const fields = parameter(properties, resource, operation, 'fields');

	test('offers Raw (the default, so saved workflows keep their output), Simplified and Select Included Fields', () => {
		expect(output.type).toBe('options');
		expect(output.default).toBe('raw');
		expect((output.options as INodePropertyOptions[]).map((o) => o.value).sort()).toEqual([
			'fields',
			'raw',
			'simple',
		]);
	});

	test('Fields is a multi-select shown only for Select Included Fields', () => {
		expect(fields.type).toBe('multiOptions');
		expect(fields.displayOptions?.show?.output).toEqual(['fields']);
		const names = (fields.options as INodePropertyOptions[]).map((o) => o.name);
		expect(names.length).toBeGreaterThan(10);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	test('the Simplified help names at most 10 fields', () => {
		const simple = (output.options as INodePropertyOptions[]).find((o) => o.value === 'simple');
		const listed = (simple?.description ?? '').replace(/^At most 10 fields: /, '').split(', ');
		expect(listed.length).toBeGreaterThan(3);
		expect(listed.length).toBeLessThanOrEqual(10);
	});
});

describe('the output choice', () => {
	const schema = outputChoiceSchema({
		records: 'things',
		simplifiedFields: ['a'],
		selectableFields: ['a', 'b', 'c'],
	});
	const record: IDataObject = { a: 1, b: { nested: true }, c: null };

	test('fields are read from a list or a comma-separated text, without repeats', () => {
		expect(schema.parse({ output: 'fields', fields: 'c, a,,c' })).toEqual({
			mode: 'fields',
			fields: ['c', 'a'],
		});
		expect(schema.parse({ output: 'fields', fields: ['b'] })).toEqual({
			mode: 'fields',
			fields: ['b'],
		});
	});

	test('fields are ignored unless Select Included Fields is chosen', () => {
		expect(schema.parse({ output: 'raw', fields: [] })).toEqual({ mode: 'raw', fields: [] });
		expect(schema.parse({ output: 'simple', fields: 'zzz' })).toEqual({
			mode: 'simple',
			fields: [],
		});
	});

	test('an unknown output value, no field or an unknown field is refused', () => {
		expect(schema.safeParse({ output: 'simplified', fields: [] }).success).toBe(false);
		expect(schema.safeParse({ output: 'fields', fields: [] }).success).toBe(false);
		const unknown = schema.safeParse({ output: 'fields', fields: ['a', 'd'] });
		expect(unknown.success).toBe(false);
		expect(unknown.error?.issues[0].message).toContain('unknown field "d"');
	});

	test('each mode shapes a record', () => {
		const simplify = (r: IDataObject): IDataObject => ({ only: r.a });
		expect(shapeRecord(record, { mode: 'raw', fields: [] }, simplify)).toBe(record);
		expect(shapeRecord(record, { mode: 'simple', fields: [] }, simplify)).toEqual({ only: 1 });
		// A chosen field the record has keeps its value, null included; others are left out.
		expect(
			shapeRecord({ c: null, b: 2 }, { mode: 'fields', fields: ['c', 'a'] }, simplify),
		).toEqual({ c: null });
	});
});
