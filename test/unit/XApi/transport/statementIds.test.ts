import {
	STATEMENT_ID_NAMESPACE,
	statementIdFor,
	uuidV5,
} from '../../../../nodes/XApi/transport/statementIds';

/*
 * The vectors were computed with Python's standard library, independently of this code:
 *   import uuid; ns = uuid.UUID('1c00e23b-464b-4b02-b45d-d56d4ad34dd3'); uuid.uuid5(ns, name)
 * They pin the ids for good: a change here means events sent again would be stored twice.
 */
const VECTORS: Array<[string, string]> = [
	['completion-42', 'e3558ddd-ac6f-5278-a8db-cf9ac64135f7'],
	['Completion-42', '055df19b-96ad-55c1-bc22-04e99507b8a6'],
	['ada@example.com|onboarding-101|2026-11-24', 'd678a90a-f9dd-539d-a30f-db057affa8c1'],
	['Zoë – Überprüfung ✓', '7633e38f-eaf1-589c-b065-50e7e71ca1e0'],
];

test('the namespace is the published one', () => {
	expect(STATEMENT_ID_NAMESPACE).toBe('1c00e23b-464b-4b02-b45d-d56d4ad34dd3');
});

test.each(VECTORS)('the key %p gives the id Python gives', (key, id) => {
	expect(statementIdFor(key)).toBe(id);
});

test('the RFC example: python.org in the DNS namespace', () => {
	// uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')
	expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
		'886313e1-3b8a-5372-9b90-0c9aee199e5d',
	);
});

test('outer spaces are not part of the key; case is', () => {
	expect(statementIdFor(' completion-42 ')).toBe(statementIdFor('completion-42'));
	expect(statementIdFor('completion-42')).not.toBe(statementIdFor('Completion-42'));
});

test('ids are version 5, RFC variant', () => {
	for (const [key] of VECTORS) {
		expect(statementIdFor(key)).toMatch(
			/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
		);
	}
});
