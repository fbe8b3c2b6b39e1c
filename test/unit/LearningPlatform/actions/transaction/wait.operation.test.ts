/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { Readable } from 'node:stream';

import type { CompletionEstimate } from '../../../../../nodes/shared/pacing/time';
import { Deadline } from '../../../../../nodes/shared/pacing/time';
import type { LmsRun } from '../../../../../nodes/LearningPlatform/transport';
import { waitForTransaction } from '../../../../../nodes/LearningPlatform/transport';
import { tokenFingerprint } from '../../../../../nodes/LearningPlatform/transport/credential';

// Time here is jest's fake clock: the tests check when the transaction is checked, not speed.
beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());

/** A run whose transaction answers the given statuses in turn ("initiated" once they run out); "refused" is an HTTP 400 after `delayMs`. */
function runAnswering(statuses: string[], delayMs = 0) {
	const checks: number[] = [];
	const start = Date.now();
	const fns = {
		getNode: () => ({
			id: '1',
			name: 'LMS',
			type: 'lms',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		helpers: {
			async httpRequestWithAuthentication() {
				checks.push(Date.now() - start);
				const status = statuses.shift() ?? 'initiated';
				if (status === 'refused') {
					await new Promise((resolve) => setTimeout(resolve, delayMs));
					throw Object.assign(new Error('failed 400'), {
						response: { status: 400, headers: {}, data: Readable.from([Buffer.from('{}')]) },
					});
				}
				const data = { id: 't-1', status, response: {} };
				const body = Readable.from([Buffer.from(JSON.stringify({ data }))]);
				return { body, headers: { 'content-type': 'application/json' }, statusCode: 200 };
			},
		},
	};
	const credentials: Record<string, unknown> = {
		baseUrl: 'https://lms.test',
		clientId: 'c',
		clientSecret: 's',
	};
	// A token saved in date: the checks go out with it, no token request first.
	Object.assign(credentials, {
		accessToken: 'tok',
		accessTokenFor: tokenFingerprint(credentials),
		accessTokenExpiresAt: Date.now() + 3_600_000,
	});
	const origin = 'https://lms.test';
	const run = { fns, credentials, baseUrl: origin, origin, stopped: false } as unknown as LmsRun;
	return { run, checks };
}

/** A learned first-check delay that the test moves while the item waits. */
function learned(delayMs: () => number) {
	const observed: Array<[number, boolean]> = [];
	const estimate = {
		firstCheckDelayMs: delayMs,
		observeFirstCheck: (elapsedMs: number, done: boolean) => observed.push([elapsedMs, done]),
	} as unknown as CompletionEstimate;
	return { estimate, observed };
}

describe('waiting for a transaction', () => {
	test('waits with growing intervals and stops when done', async () => {
		const { run, checks } = runAnswering(['initiated', 'initiated', 'initiated', 'success']);
		const waiting = waitForTransaction(run, 0, 't-1', {
			pollIntervalSec: 1,
			deadline: new Deadline(60_000),
		});
		await jest.advanceTimersByTimeAsync(10_000);
		expect(await waiting).toMatchObject({ transaction: { status: 'success' }, polls: 4 });
		expect(checks).toEqual([0, 1_000, 2_500, 4_750]);
	});

	test('never sleeps past the deadline, and ends then as still in progress', async () => {
		const { run, checks } = runAnswering([]);
		let settled = false;
		const waiting = waitForTransaction(run, 0, 't-1', {
			pollIntervalSec: 1,
			deadline: new Deadline(1_200),
		});
		const failed = expect(waiting).rejects.toThrow(
			'Transaction t-1 was still in progress after 1 s',
		);
		waiting.catch(() => (settled = true));
		await jest.advanceTimersByTimeAsync(1_199);
		expect(settled).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		await failed;
		expect(checks).toEqual([0, 1_000]);
	});

	test('a check that fails once the deadline has passed ends as still in progress; earlier, as its own error', async () => {
		const late = runAnswering(['initiated', 'refused'], 2_000);
		const waiting = waitForTransaction(late.run, 0, 't-1', {
			pollIntervalSec: 1,
			deadline: new Deadline(1_500),
		});
		const timedOut = expect(waiting).rejects.toThrow(
			'Transaction t-1 was still in progress after 2 s',
		);
		await jest.advanceTimersByTimeAsync(5_000);
		await timedOut;

		const early = runAnswering(['initiated', 'refused']);
		const failing = waitForTransaction(early.run, 0, 't-1', {
			pollIntervalSec: 1,
			deadline: new Deadline(60_000),
		});
		const refused = expect(failing).rejects.not.toThrow('still in progress');
		await jest.advanceTimersByTimeAsync(5_000);
		await refused;
		expect(early.checks).toEqual([0, 1_000]);
	});

	test('checks no sooner than learned, asks again while waiting, and leaves room for a check', async () => {
		const { run, checks } = runAnswering(['initiated', 'success']);
		let notBefore = 3_000;
		const { estimate, observed } = learned(() => notBefore);
		const waiting = waitForTransaction(run, 0, 't-1', {
			pollIntervalSec: 1,
			deadline: new Deadline(60_000),
			learnFrom: estimate,
		});
		await jest.advanceTimersByTimeAsync(2_000);
		notBefore = 6_000; // another item's first check found its transaction running
		await jest.advanceTimersByTimeAsync(10_000);
		await waiting;
		// The first check moved to 6 s; the second comes one interval later.
		expect(checks).toEqual([6_000, 7_000]);
		expect(observed).toEqual([[6_000, false]]);

		const short = runAnswering(['success']);
		const quick = waitForTransaction(short.run, 0, 't-1', {
			pollIntervalSec: 1,
			deadline: new Deadline(1_000),
			learnFrom: learned(() => 3_000).estimate,
		});
		await jest.advanceTimersByTimeAsync(2_000);
		await quick;
		expect(short.checks).toEqual([500]);
	});
});
