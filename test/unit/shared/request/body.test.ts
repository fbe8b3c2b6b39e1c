import {
	MAX_JSON_DEPTH,
	errorBodyOf,
	jsonOf,
	nestingDepth,
	readBody,
} from '../../../../nodes/shared/request/body';

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('nestingDepth', () => {
	test.each([
		['1', 0],
		['[]', 1],
		['{"a":[1,{"b":{}}]}', 4],
		['[[1],[2],[[3]]]', 3],
		[nested(7), 7],
	])('%s nests %i deep', (text, depth) => {
		expect(nestingDepth(text)).toBe(depth);
	});

	test('brackets inside strings, escaped quotes and backslashes included, do not count', () => {
		expect(nestingDepth('{"a":"[[[{{{","b":"\\"[[[","c":"\\\\","d":[1]}')).toBe(2);
		expect(nestingDepth('["\\\\\\"[["]')).toBe(1);
	});

	test('20,000 levels are counted without recursion, and counting stops past the limit', () => {
		expect(nestingDepth(nested(20_000))).toBe(20_000);
		expect(nestingDepth(nested(20_000), 100)).toBe(101);
	});
});

describe('jsonOf', () => {
	const type = 'application/json';

	test('JSON nested deeper than the bound is an unexpected answer, saying why', () => {
		expect(() => jsonOf(200, type, nested(MAX_JSON_DEPTH + 1))).toThrow(
			`unexpected answer (HTTP 200, application/json), JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
		);
		expect(jsonOf(200, type, nested(MAX_JSON_DEPTH))).toHaveLength(1);
	});

	test('a byte-order mark before the JSON is skipped', () => {
		expect(jsonOf(200, type, '\uFEFF{"data":[1]}')).toEqual({ data: [1] });
		expect(errorBodyOf('\uFEFF{"message":"no"}')).toEqual({ message: 'no' });
		expect(() => jsonOf(200, type, '\uFEFF')).toThrow(/empty body/);
	});

	test('a byte-order mark decoded from the wire is skipped too', async () => {
		const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[1,2]')]);
		const { text, bytes } = await readBody(body, 1024);
		expect(bytes).toBe(body.length);
		expect(jsonOf(200, type, text)).toEqual([1, 2]);
	});

	test('an error body nested too deep stays text', () => {
		const text = nested(MAX_JSON_DEPTH + 1);
		expect(errorBodyOf(text)).toBe(text);
	});
});
