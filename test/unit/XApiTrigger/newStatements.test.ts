import {
	clockOf,
	StoreClock,
	UNKNOWN_CLOCK_SLACK_MS,
} from '../../../nodes/XApiTrigger/newStatements';
import {
	emptyCursor,
	holdBack,
	readCursor,
	remember,
	savedCursor,
} from '../../../nodes/XApiTrigger/cursor';

const DATE = 'Tue, 24 Nov 2026 15:00:00 GMT';

describe('clockOf', () => {
	test('a Date header reads as the last moment of its second', () => {
		expect(clockOf({ date: DATE })).toBe(Date.parse(DATE) + 999);
	});

	test('Consistent-Through serves without a Date, and wins when it is later', () => {
		const through = '2026-11-24T15:00:05.250Z';
		expect(clockOf({ 'x-experience-api-consistent-through': through })).toBe(Date.parse(through));
		expect(clockOf({ date: DATE, 'x-experience-api-consistent-through': through })).toBe(
			Date.parse(through),
		);
		expect(
			clockOf({ date: DATE, 'x-experience-api-consistent-through': '2026-11-24T14:59:00.000Z' }),
		).toBe(Date.parse(DATE) + 999);
	});

	test('no header, or one that is no time, says nothing', () => {
		expect(clockOf({})).toBeUndefined();
		expect(clockOf({ date: 'soon', 'x-experience-api-consistent-through': '' })).toBeUndefined();
	});
});

describe('StoreClock', () => {
	test("keeps the latest time of the answers; without any, n8n's clock plus the slack", () => {
		const clock = new StoreClock(() => 1_000);
		expect(clock.nowMs()).toBe(1_000 + UNKNOWN_CLOCK_SLACK_MS);
		clock.read({ 'x-experience-api-consistent-through': '2026-11-24T15:00:05.000Z' });
		clock.read({ 'x-experience-api-consistent-through': '2026-11-24T15:00:01.000Z' });
		expect(clock.nowMs()).toBe(Date.parse('2026-11-24T15:00:05.000Z'));
	});
});

describe('the cursor and the store clock', () => {
	test('a statement stored past the clock moves the cursor only to the clock, and stays remembered', () => {
		const cursor = emptyCursor('k');
		remember(cursor, { id: 'A', stored: '2026-11-24T15:00:00.000Z' }, Infinity);
		remember(cursor, { id: 'B', stored: '2999-01-01T00:00:00.000Z' }, Date.parse(DATE));
		expect(cursor.storedMs).toBe(Date.parse(DATE));
		expect([...cursor.recent.keys()]).toEqual(['a', 'b']);
		holdBack(cursor, Date.parse(DATE) - 1);
		expect(cursor.storedMs).toBe(Date.parse(DATE) - 1);
	});

	test('saved as pairs, read back with any id (ids are kept in lower case)', () => {
		const cursor = emptyCursor('k');
		for (const id of ['__proto__', 'constructor', 'toString']) {
			remember(cursor, { id, stored: '2026-11-24T15:00:00.000Z' });
		}
		const read = readCursor(JSON.parse(JSON.stringify(savedCursor(cursor))), 'k');
		expect([...(read?.recent.keys() ?? [])]).toEqual(['__proto__', 'constructor', 'tostring']);
	});
});
