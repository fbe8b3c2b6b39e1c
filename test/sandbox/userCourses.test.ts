import type { Sandbox } from '../../sandbox/server';
import {
	COURSES,
	USER_COURSES,
	courseBody,
	issueToken,
	post,
	startTestSandbox,
	writeAndWait,
} from './helpers';

describe('assignments and completions', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ userDomains: ['learners.test'] });
		token = await issueToken(sandbox);
		await writeAndWait(sandbox, token, COURSES, courseBody('uc-1'));
	});
	afterAll(() => sandbox.close());

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

	it('records each status for (email, external_id) and counts the applied writes', async () => {
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
		const assignment = sandbox.state().assignments['ana@learners.test|uc-1'];
		expect(assignment).toMatchObject({ status: 'completed', end_date: '2030-06-20', writes: 3 });

		await writeAndWait(sandbox, token, USER_COURSES, {
			email_id: 'ana@learners.test',
			external_id: 'uc-1',
			status: 'withdraw',
		});
		expect(sandbox.state().assignments['ana@learners.test|uc-1']).toMatchObject({
			status: 'withdraw',
			writes: 4,
		});
	});

	it.each([
		['status', { status: 'started' }],
		['status', { status: undefined }],
		['end_date', { status: 'completed' }],
		['end_date', { status: 'completed', end_date: '20 June' }],
		['due_date', { due_date: 'tomorrow' }],
		['email_id', { email_id: 'not-an-email' }],
		['email_id', { email_id: undefined }],
		['external_id', { external_id: 7 }],
	])('answers 422 naming %s', async (field, change) => {
		const body = {
			email_id: 'ana@learners.test',
			external_id: 'uc-1',
			status: 'assigned',
			...change,
		};
		const answer = await post(sandbox, USER_COURSES, body, token);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
	});
});
