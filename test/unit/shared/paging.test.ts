import { LinkGuard, PageGuard } from '../../../nodes/shared/pacing/paging';

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
