/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { isSameStatement } from '../../../../nodes/XApi/transport/sameStatement';

const sent = {
	id: '6690e6c9-3ef0-4ed3-8b37-7f3964730bee',
	actor: { name: 'Ada', mbox: 'mailto:ada@Example.COM' },
	verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
	object: { id: 'https://learn.test/1', definition: { name: { 'en-US': 'One' } } },
	result: { score: { scaled: 0.5 }, duration: 'PT1.2345S' },
	context: {
		registration: 'EC531277-B57B-4C15-8D91-D292C5B2B8F7',
		contextActivities: { category: { id: 'https://learn.test/cat' } },
		team: {
			objectType: 'Group',
			member: [{ mbox: 'mailto:a@x.test' }, { mbox: 'mailto:b@x.test' }],
		},
	},
	timestamp: '2024-05-01T12:00:00+02:00',
};

/** What a store may hand back for the same statement (xAPI-Data 2.3.1's exceptions). */
const storedCopy = {
	id: '6690E6C9-3EF0-4ED3-8B37-7F3964730BEE',
	actor: { objectType: 'Agent', name: 'Ada', mbox: 'mailto:ada@example.com' },
	verb: { id: 'http://adlnet.gov/expapi/verbs/completed' },
	object: {
		objectType: 'Activity',
		id: 'https://learn.test/1',
		definition: { name: { 'en-GB': 'Canonical' } },
	},
	result: { duration: 'PT1.23S', score: { scaled: 0.5 } },
	context: {
		registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
		contextActivities: { category: [{ objectType: 'Activity', id: 'https://learn.test/cat' }] },
		team: {
			objectType: 'Group',
			member: [{ mbox: 'mailto:b@x.test' }, { objectType: 'Agent', mbox: 'mailto:a@x.test' }],
		},
	},
	timestamp: '2024-05-01T10:00:00.000Z',
	stored: '2024-05-01T10:00:03.000Z',
	authority: { objectType: 'Agent', mbox: 'mailto:client@lrs.test' },
	version: '1.0.3',
};

test('differences a store may introduce are ignored', () => {
	expect(isSameStatement(sent, storedCopy)).toBe(true);
});

test('a timestamp the store filled in is ignored; a different one is not', () => {
	const { timestamp: _omitted, ...withoutTimestamp } = sent;
	expect(isSameStatement(withoutTimestamp, storedCopy)).toBe(true);
	expect(isSameStatement(sent, { ...storedCopy, timestamp: '2024-05-01T10:00:01.000Z' })).toBe(
		false,
	);
});

test.each([
	['another activity', { object: { id: 'https://learn.test/2' } }],
	['another verb', { verb: { id: 'http://adlnet.gov/expapi/verbs/passed' } }],
	['another learner', { actor: { name: 'Ada', mbox: 'mailto:grace@example.com' } }],
	['another score', { result: { duration: 'PT1.23S', score: { scaled: 0.6 } } }],
	['a longer duration', { result: { duration: 'PT1.24S', score: { scaled: 0.5 } } }],
	[
		'another registration',
		{ context: { ...storedCopy.context, registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f8' } },
	],
	['an extra result property', { result: { ...storedCopy.result, success: true } }],
])('%s makes it a different statement', (_name, change) => {
	expect(isSameStatement(sent, { ...storedCopy, ...change })).toBe(false);
});

test('the seconds-only duration of the platform\'s document, "P16559.14S", is the same as "PT16559.14S"', () => {
	const withDocumentedForm = {
		...sent,
		result: { score: { scaled: 0.5 }, duration: 'P16559.14S' },
	};
	const storedWithT = {
		...storedCopy,
		result: { duration: 'PT16559.14S', score: { scaled: 0.5 } },
	};
	const storedLonger = {
		...storedCopy,
		result: { duration: 'PT16559.15S', score: { scaled: 0.5 } },
	};

	expect(isSameStatement(withDocumentedForm, storedWithT)).toBe(true);
	expect(
		isSameStatement(withDocumentedForm, { ...storedWithT, result: withDocumentedForm.result }),
	).toBe(true);
	expect(isSameStatement(withDocumentedForm, storedLonger)).toBe(false);
});
