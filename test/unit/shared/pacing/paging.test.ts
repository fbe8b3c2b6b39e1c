import {
	DEFAULT_MAX_WALK_BYTES,
	MAX_ITEMS_WITHOUT_ID,
	PageGuard,
} from '../../../../nodes/shared/pacing/paging';
import { LinkGuard } from '../../../../nodes/XApi/transport/statementPages';
import { pagingCeilingProperties, pagingLimitsFrom } from '../../../../nodes/shared/form/output';

describe('PageGuard', () => {
	test('passes new items, flags repeated ones, and refuses a page of nothing new', () => {
		const guard = new PageGuard('Listing', { maxPages: 10, maxItems: 100 });
		expect(guard.admit(['a', 'b'])).toEqual([true, true]);
		expect(guard.admit(['b', 'c'])).toEqual([false, true]);
		expect(() => guard.admit(['a', 'c'])).toThrow(/same page again/);
	});

	test('stops past the page and item ceilings', () => {
		const pages = new PageGuard('Listing', { maxPages: 2, maxItems: 100 });
		pages.admit(['a']);
		pages.admit(['b']);
		expect(() => pages.admit(['c'])).toThrow(/stopped after 2 pages/);
		const items = new PageGuard('Listing', { maxPages: 10, maxItems: 3 });
		items.admit(['a', 'b']);
		expect(() => items.admit(['c', 'd'])).toThrow(/stopped after 3 items/);
	});

	test('an id twice on one page passes once; a page of one id repeated is no repeat of an earlier page', () => {
		const guard = new PageGuard('Listing', { maxPages: 10, maxItems: 100 });
		expect(guard.admit(['a', 'b', 'a', 'a'])).toEqual([true, true, false, false]);
		expect(guard.admit(['c', 'c'])).toEqual([true, false]);
		expect(() => guard.admit(['c', 'a'])).toThrow(/same page again/);
	});

	test('items without an id pass, up to a bound of their own', () => {
		const guard = new PageGuard('Listing', { maxPages: 10_000, maxItems: 1_000_000 });
		const page = Array.from({ length: 100 }, () => undefined);
		for (let n = 0; n < MAX_ITEMS_WITHOUT_ID / 100; n++) {
			expect(guard.admit(page).every(Boolean)).toBe(true);
		}
		expect(() => guard.admit([undefined])).toThrow(
			`the server sent more than ${MAX_ITEMS_WITHOUT_ID} items without an id`,
		);
	});

	test('stops once the answers of a walk pass its byte budget', () => {
		const guard = new PageGuard('Listing', {
			maxPages: 10,
			maxItems: 100,
			maxBytes: 3 * 1024 * 1024,
		});
		guard.read(2 * 1024 * 1024);
		guard.read(1024 * 1024);
		expect(() => guard.read(1)).toThrow(/Listing stopped after 3 MB of answers/);
	});

	test('an empty page is no repeat (the walk ends there)', () => {
		const guard = new PageGuard('Listing');
		guard.admit(['a']);
		expect(guard.admit([])).toEqual([]);
	});
});

describe('LinkGuard', () => {
	test('a link followed before is refused', () => {
		const links = new LinkGuard('Listing statements');
		links.follow('https://lrs.test/a');
		links.follow('https://lrs.test/b');
		expect(() => links.follow('https://lrs.test/a')).toThrow(/it had sent before/);
	});
});

describe('paging options', () => {
	test('Max Megabytes shows the default byte budget, and a value given replaces it', () => {
		const option = pagingCeilingProperties('courses').find((p) => p.name === 'maxMegabytes');
		expect(option?.default).toBe(DEFAULT_MAX_WALK_BYTES / 1024 / 1024);
		expect(pagingLimitsFrom({}).maxBytes).toBe(DEFAULT_MAX_WALK_BYTES);
		expect(pagingLimitsFrom({ maxMegabytes: 3 }).maxBytes).toBe(3 * 1024 * 1024);
	});
});
