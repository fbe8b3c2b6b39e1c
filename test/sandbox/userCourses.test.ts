import { ManualClock } from '../../sandbox/clock';
import type { Sandbox } from '../../sandbox/server';
import {
	COURSES,
	REQUEST_DATA,
	USER_COURSES,
	UUID,
	courseBody,
	get,
	issueToken,
	post,
	startTestSandbox,
	writeAndWait,
} from './helpers';

describe('assignments and completions', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		// The manual clock starts at 2026-01-01T00:00:00Z.
		sandbox = await startTestSandbox({ userDomains: ['learners.test'] });
		token = await issueToken(sandbox);
		await writeAndWait(sandbox, token, COURSES, courseBody('uc-1'));
	});
	afterAll(() => sandbox.close());

	const assignment = (email: string) => sandbox.state().assignments[`${email}|uc-1`];

	it('fails the transaction for content not created through the API', async () => {
		const transaction = await writeAndWait(sandbox, token, USER_COURSES, {
			email_id: 'ana@learners.test',
			external_id: 'never-created',
			status: 'assigned',
		});
		expect(transaction).toMatchObject({
			status: 'failed',
			response: { message: 'Content not found for external_id never-created' },
		});
	});

	it('fails the transaction for an unknown user', async () => {
		const transaction = await writeAndWait(sandbox, token, USER_COURSES, {
			email_id: 'bob@example.com',
			external_id: 'uc-1',
			status: 'assigned',
		});
		expect(transaction).toMatchObject({
			status: 'failed',
			response: { message: 'User not found: bob@example.com' },
		});
		expect(sandbox.state().assignments).toEqual({});
	});

	it('answers an accepted write with a transaction', async () => {
		const answer = await post(
			sandbox,
			USER_COURSES,
			{ email_id: 'cy@learners.test', external_id: 'uc-1', status: 'assigned' },
			token,
		);
		expect(answer.status).toBe(202);
		expect(answer.body).toEqual({
			message: 'Transaction for the user course started in background',
			data: {
				id: expect.stringMatching(UUID),
				http_method: 'POST',
				status: 'initiated',
				response: {},
			},
		});
	});

	it('records each status, keeps what a write does not carry, and counts the applied writes', async () => {
		const steps = [
			{ status: 'assigned', due_date: '2030-06-30', assigned_date: '2030-06-01' },
			{ status: 'Started' },
			{ status: 'completed', end_date: '2030-06-20' },
		];
		for (const step of steps) {
			const transaction = await writeAndWait(sandbox, token, USER_COURSES, {
				email_id: 'Ana@Learners.test',
				external_id: 'uc-1',
				...step,
			});
			expect(transaction.status).toBe('success');
			expect(transaction.response.message).toEqual(expect.any(String));
		}
		expect(assignment('ana@learners.test')).toMatchObject({
			status: 'completed',
			due_date: '2030-06-30',
			assigned_date: '2030-06-01',
			end_date: '2030-06-20',
			writes: 3,
		});

		await writeAndWait(sandbox, token, USER_COURSES, {
			email_id: 'ana@learners.test',
			external_id: 'uc-1',
			status: 'withdraw',
		});
		expect(assignment('ana@learners.test')).toMatchObject({
			status: 'withdraw',
			due_date: '2030-06-30',
			writes: 4,
		});

		// The withdraw removed the assignment: the next one starts afresh.
		await writeAndWait(sandbox, token, USER_COURSES, {
			email_id: 'ana@learners.test',
			external_id: 'uc-1',
			status: 'assigned',
		});
		expect(assignment('ana@learners.test')).toMatchObject({
			status: 'assigned',
			due_date: null,
			assigned_date: '2026-01-01',
			end_date: null,
			writes: 5,
		});
	});

	it('takes status assigned when the body has none, as documented', async () => {
		const transaction = await writeAndWait(sandbox, token, USER_COURSES, {
			email_id: 'dee@learners.test',
			external_id: 'uc-1',
		});
		expect(transaction).toMatchObject({
			status: 'success',
			response: { message: 'Content assigned' },
		});
		expect(assignment('dee@learners.test')).toMatchObject({
			status: 'assigned',
			assigned_date: '2026-01-01',
		});
	});

	const invalid: Array<[string, Record<string, unknown>]> = [
		['status', { status: 'started' }],
		['status', { status: 'Withdraw' }],
		['end_date', { status: 'completed' }],
		['end_date', { status: 'completed', end_date: '20 June' }],
		['due_date', { due_date: 'tomorrow' }],
		['email_id', { email_id: 'not-an-email' }],
		['email_id', { email_id: undefined }],
		['external_id', { external_id: 7 }],
		['external_id', { external_id: undefined }],
		['course_id', { course_id: 'uc-1' }],
		['user_email', { user_email: 'ana@learners.test' }],
	];
	// Only YYYY-MM-DD: any date-time, or an impossible day, is refused.
	for (const field of ['due_date', 'assigned_date', 'end_date']) {
		for (const value of [
			'2030-06-30T00:00:00Z',
			'2030-06-30T00:00:00.000Z',
			'2030-06-30T10:00',
			'2030-06-30T10:00:00+02:00',
			'2030-06-30 00:00:00',
			'2030-06-30Z',
			'2030-6-30',
			'30/06/2030',
			'2030-02-30',
			'20300630',
		]) {
			invalid.push([field, { status: 'completed', end_date: '2030-06-20', [field]: value }]);
		}
	}

	it.each(invalid)('answers 422 naming %s for %j', async (field, change) => {
		const body = {
			email_id: 'ana@learners.test',
			external_id: 'uc-1',
			status: 'assigned',
			...change,
		};
		const answer = await post(sandbox, USER_COURSES, body, token);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
		expect(answer.body.message).toContain(field);
	});

	it('refuses query parameters on the write', async () => {
		const answer = await post(
			sandbox,
			`${USER_COURSES}?status=assigned`,
			{ email_id: 'ana@learners.test', external_id: 'uc-1' },
			token,
		);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual(['status']);
	});
});

describe('the default assigned_date', () => {
	it('is the day (UTC) the request was received, not the day it was carried out', async () => {
		const clock = new ManualClock(Date.UTC(2026, 4, 31, 23, 40, 0));
		const delayMs = 10 * 60_000;
		const sandbox = await startTestSandbox(
			{ userDomains: ['learners.test'], transactionDelayMs: delayMs },
			clock,
		);
		try {
			const token = await issueToken(sandbox);
			await post(sandbox, COURSES, courseBody('late'), token);
			clock.advance(delayMs); // 23:50, the course exists
			const accepted = await post(
				sandbox,
				USER_COURSES,
				{ email_id: 'eve@learners.test', external_id: 'late', status: 'assigned' },
				token,
			);
			expect(accepted.status).toBe(202);
			clock.advance(delayMs); // midnight: carried out on June 1
			const done = await get(sandbox, `${REQUEST_DATA}${accepted.body.data.id}`, token);
			expect(done.body.data.status).toBe('success');
			expect(sandbox.state().assignments['eve@learners.test|late']).toMatchObject({
				assigned_date: '2026-05-31',
				updated_at: '2026-06-01T00:00:00.000Z',
			});

			// A later write without assigned_date keeps the one the assignment has.
			const later = await post(
				sandbox,
				USER_COURSES,
				{ email_id: 'eve@learners.test', external_id: 'late', status: 'Started' },
				token,
			);
			clock.advance(3 * 24 * 3600 * 1000);
			await get(sandbox, `${REQUEST_DATA}${later.body.data.id}`, token);
			expect(sandbox.state().assignments['eve@learners.test|late']).toMatchObject({
				status: 'Started',
				assigned_date: '2026-05-31',
				writes: 2,
			});
		} finally {
			await sandbox.close();
		}
	});
});
