import nock from 'nock';

import {
	BASE_URL,
	accepted,
	lmsCredentials,
	transaction,
	credentialsWithToken,
	isolateNetwork,
} from '../helpers/lms';
import { runNode } from '../helpers/workflows';

const USER_COURSES = '/api/developer/v2/user_courses.json';
const tx = (id: string) => `/api/developer/v2/request_data/${id}`;

isolateNetwork();

describe('assignment operations send the documented body', () => {
	test.each([
		[
			'assign',
			{ additionalFields: { dueDate: '2026-12-01T00:00:00.000Z', assignedDate: '2026-11-20' } },
			{ status: 'assigned', due_date: '2026-12-01', assigned_date: '2026-11-20' },
		],
		['assign', {}, { status: 'assigned' }],
		['withdraw', {}, { status: 'withdraw' }],
		['complete', { endDate: '2026-11-21' }, { status: 'completed', end_date: '2026-11-21' }],
		['start', {}, { status: 'Started' }],
	])('%s %j', async (operation, extra, expected) => {
		const credentials = credentialsWithToken();
		let body: unknown;
		nock(BASE_URL)
			.post(USER_COURSES, (b) => ((body = b), true))
			.reply(202, accepted('tx-u'));
		// Waiting for completion is the default: the item succeeds once its transaction did.
		nock(BASE_URL).get(tx('tx-u')).reply(200, transaction('tx-u', 'success'));

		const run = await runNode({
			credentials,
			parameters: {
				resource: 'assignment',
				operation,
				email: 'ada@example.com',
				externalId: 'onb-1',
				...extra,
			},
		});

		expect(run.error).toBeUndefined();
		expect(body).toEqual({ email_id: 'ada@example.com', external_id: 'onb-1', ...expected });
		expect(run.items[0].json).toMatchObject({
			email: 'ada@example.com',
			externalId: 'onb-1',
			assignmentStatus: expected.status,
			transactionId: 'tx-u',
			status: 'success',
			confirmation: 'confirmed',
		});
	});

	test('complete whose end date comes out empty fails before sending, naming the field', async () => {
		const credentials = lmsCredentials();
		const run = await runNode({
			credentials,
			items: [{ finishedOn: '' }],
			parameters: {
				resource: 'assignment',
				operation: 'complete',
				email: 'ada@example.com',
				externalId: 'x',
				endDate: '={{ $json.finishedOn }}',
			},
		});
		expect(run.error?.message).toBe('Invalid input on item 0: End Date: is required');
	});
});

describe('transactions', () => {
	test('get returns the transaction as the platform reports it', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL)
			.get(tx('t-1'))
			.reply(200, transaction('t-1', 'initiated', ''));

		const run = await runNode({
			credentials,
			parameters: { resource: 'transaction', operation: 'get', transactionId: 't-1' },
		});

		expect(run.items[0].json).toEqual({
			transactionId: 't-1',
			id: 't-1',
			http_method: 'POST',
			status: 'initiated',
			response: { message: '' },
		});
	});

	test('wait polls until success and reports the polls', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL).get(tx('t-2')).times(2).reply(200, transaction('t-2', 'initiated'));
		nock(BASE_URL)
			.get(tx('t-2'))
			.reply(200, transaction('t-2', 'success', 'Content updated'));

		const run = await runNode({
			credentials,
			parameters: {
				resource: 'transaction',
				operation: 'wait',
				transactionId: 't-2',
				options: { pollInterval: 0.1, timeout: 10 },
			},
		});

		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ transactionId: 't-2', status: 'success', polls: 3 });
		expect(nock.isDone()).toBe(true);
	});

	test('wait reports a failed transaction as an error with the platform message', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL)
			.get(tx('t-3'))
			.reply(200, transaction('t-3', 'failed', 'User not found: bob@nowhere.test'));

		const run = await runNode({
			credentials,
			continueOnFail: true,
			parameters: {
				resource: 'transaction',
				operation: 'wait',
				transactionId: 't-3',
				options: { pollInterval: 0.1 },
			},
		});

		expect(run.items[0].json).toMatchObject({
			error: 'User not found: bob@nowhere.test (transaction t-3 ended with status "failed")',
			details: expect.objectContaining({ transactionId: 't-3', status: 'failed' }),
		});
	});

	test('wait gives up at the timeout and names the transaction to poll later', async () => {
		const credentials = credentialsWithToken();
		nock(BASE_URL).get(tx('t-4')).times(20).reply(200, transaction('t-4', 'initiated'));

		const run = await runNode({
			credentials,
			continueOnFail: true,
			parameters: {
				resource: 'transaction',
				operation: 'wait',
				transactionId: 't-4',
				options: { pollInterval: 0.2, timeout: 1 },
			},
		});

		expect(run.items[0].json).toMatchObject({
			error: 'Transaction t-4 was still in progress after 1 s',
			details: expect.objectContaining({ transactionId: 't-4', status: 'initiated' }),
		});
		expect(String((run.items[0].json.details as { description: string }).description)).toContain(
			't-4',
		);
	});
});
