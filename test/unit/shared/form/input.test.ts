import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import { z } from 'zod';

import { flexibleDate, flexibleDateTime } from '../../../../nodes/LearningPlatform/transport/formats';
import { illFormedAt } from '../../../../nodes/shared/form/illFormed';
import { listOfStrings, parseItemInput, safeId } from '../../../../nodes/shared/form/input';

const node = { name: 'Node' } as INode;

describe('validation helpers', () => {
	test('lists come as comma-separated text or arrays', () => {
		expect(listOfStrings.parse(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
		expect(listOfStrings.parse([1, 'x'])).toEqual(['1', 'x']);
	});

	test('dates from date pickers become the API formats', () => {
		expect(flexibleDate.parse('2026-03-04T00:00:00.000+01:00')).toBe('2026-03-04');
		expect(flexibleDate.parse('2026-03-04T10:00:00')).toBe('2026-03-04');
		// A time with an offset: which date is meant depends on the time zone, so it is refused.
		expect(flexibleDate.safeParse('2026-03-04T10:00:00.000+01:00').success).toBe(false);
		expect(flexibleDateTime.safeParse('2026-03-04T10:05:00Z').success).toBe(false);
		expect(flexibleDateTime.parse('2026-03-04T10:05')).toBe('2026-03-04 10:05:00');
		expect(flexibleDateTime.parse('2026-03-04 10:05:06')).toBe('2026-03-04 10:05:06');
		expect(flexibleDate.safeParse('04/03/2026').success).toBe(false);
		expect(flexibleDateTime.safeParse('2026-03-04 25:00:00').success).toBe(false);
	});

	test('ids and lists refuse a lone surrogate; a whole emoji and U+FFFD are well-formed', () => {
		for (const half of ['\ud800', '\udbff', '\udc00', 'x\ude00y', '\ud83d']) {
			expect(safeId.safeParse(`evt-${half}`).success).toBe(false);
			expect(listOfStrings.safeParse(['a', `b${half}`]).success).toBe(false);
		}
		for (const whole of ['\ud83d\ude00', '\ufffd', 'é']) {
			expect(safeId.parse(`evt-${whole}`)).toBe(`evt-${whole}`);
		}
		expect(illFormedAt({ a: [{ ok: '\ud83d\ude00' }, { b: 'x\udc00' }] })).toEqual(['a', 1, 'b']);
		expect(illFormedAt({ ['k\ud800']: 1 })).toEqual(['k\ud800']);
		expect(illFormedAt({ a: ['fine', 2, null] })).toBeUndefined();
	});

	test('errors name the item and the field path', () => {
		const schema = z.object({ a: z.object({ b: z.array(z.number()) }) });
		let error: unknown;
		try {
			parseItemInput(node, 4, schema, { a: { b: [1, 'x'] } });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('Invalid input on item 4: a.b[1]: must be a number');
	});
});
