import { randomBytes } from 'node:crypto';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { outputItems } from '../../harness/executeOutput';
import {
	acceptedWrites,
	apiRequests,
	bearerTokens,
	COURSES_PATH,
	lastSeq,
	requestsSince,
	seedCourses,
	settleTransactions,
	tokenRequests,
	TRANSACTION_PATH_PREFIX,
	USER_COURSES_PATH,
} from '../../harness/lmsSandbox';
import { N8nSandbox, type ExecutionResult } from '../../harness/n8n';
import { builtPackageDir } from '../../harness/paths';
import { delay } from '../../harness/processes';
import { leakedSecrets } from './lib/secrets';
import { codeNode, manualWorkflow, packageNode } from '../../harness/workflowBuilder';
import type { CredentialJson } from '../../harness/workflowJson';

/*
 * The learningPlatform node inside a real n8n (CLI executions of imported
 * workflows) against the LMS sandbox on loopback. One n8n and one sandbox for
 * the whole file; every test reads the sandbox's request log from its own
 * starting point, so tests do not depend on each other's requests.
 */

const suffix = randomBytes(6).toString('hex');
const clientSecret = `e2e-client-secret-${suffix}`;
const wrongClientSecret = `e2e-wrong-secret-${suffix}`;

const SANDBOX_RATE_PER_MINUTE = 600;
const TRANSACTION_DELAY_MS = 300;

let lms: Sandbox;
let n8n: N8nSandbox;
/** Every execution of this file, to check none of them shows a secret. */
const executions: ExecutionResult[] = [];

function lmsCredential(
	id: string,
	name: string,
	data: Record<string, unknown> = {},
): CredentialJson {
	return {
		id,
		name,
		type: 'learningPlatformOAuth2Api',
		// baseUrl is filled in once the sandbox listens.
		data: { clientSecret, requestsPerMinute: SANDBOX_RATE_PER_MINUTE, ...data },
	};
}

const credentials = {
	main: lmsCredential('e2eLmsMain000001', 'LMS main'),
	tokenReuse: lmsCredential('e2eLmsReuse00001', 'LMS token reuse'),
	shortLived: lmsCredential('e2eLmsShort00001', 'LMS short-lived tokens'),
	// Twice the sandbox's rate: the sandbox answers 429 and the node must wait and resend.
	bulk: lmsCredential('e2eLmsBulk000001', 'LMS bulk', {
		requestsPerMinute: 2 * SANDBOX_RATE_PER_MINUTE,
	}),
	wrongSecret: lmsCredential('e2eLmsWrong00001', 'LMS wrong secret', {
		clientSecret: wrongClientSecret,
	}),
};

const lp = (name: string, parameters: Record<string, unknown>, credential = credentials.main) =>
	packageNode(name, 'learningPlatform', parameters, credential);

const fullCourse = {
	parameters: {
		resource: 'course',
		operation: 'upsert',
		externalId: 'e2e-course-full',
		name: 'Data Privacy Basics',
		url: 'https://learn.example.com/courses/e2e-course-full',
		prices: {
			price: [
				{ amount: 49.5, currency: 'USD' },
				{ amount: 3999, currency: 'INR' },
			],
		},
		additionalFields: {
			description: 'What personal data is and how to handle it.',
			contentType: 'video',
			courseType: 'course',
			isPrivate: true,
			durationSec: 3600,
			publishedAt: '2026-01-15',
			level: 'intermediate',
			skills: 'data protection,risk awareness',
			tags: 'privacy,compliance',
			imageUrl: 'https://learn.example.com/images/e2e-course-full.png',
			languages: {
				language: [
					{
						languageCode: 'en',
						title: 'Data Privacy Basics',
						url: 'https://learn.example.com/en/e2e-course-full',
						description: 'The English edition',
					},
				],
			},
			expirationDate: '2027-12-31 23:59:59',
			groupIds: '11,12',
			channelIds: '21',
		},
		options: { waitForCompletion: true },
	},
	// The API body the interface prescribes for these parameters.
	body: {
		external_id: 'e2e-course-full',
		name: 'Data Privacy Basics',
		url: 'https://learn.example.com/courses/e2e-course-full',
		prices_data: [
			{ amount: 49.5, currency: 'USD' },
			{ amount: 3999, currency: 'INR' },
		],
		description: 'What personal data is and how to handle it.',
		content_type: 'video',
		course_type: 'course',
		is_private: true,
		duration_sec: 3600,
		published_at: '2026-01-15',
		level: 'intermediate',
		skills: ['data protection', 'risk awareness'],
		tags: ['privacy', 'compliance'],
		image_url: 'https://learn.example.com/images/e2e-course-full.png',
		languages_attributes: [
			{
				language_code: 'en',
				title: 'Data Privacy Basics',
				url: 'https://learn.example.com/en/e2e-course-full',
				description: 'The English edition',
			},
		],
		expiration_date: '2027-12-31 23:59:59',
		group_ids: ['11', '12'],
		channel_ids: ['21'],
	},
};

const simpleUpsert = (externalId: string, extra: Record<string, unknown> = {}) => ({
	resource: 'course',
	operation: 'upsert',
	externalId,
	name: `Course ${externalId}`,
	url: `https://learn.example.com/courses/${externalId}`,
	...extra,
});

const BULK_SIZE = 120;
const bulkExternalIds = Array.from(
	{ length: BULK_SIZE },
	(_, i) => `e2e-bulk-${String(i).padStart(3, '0')}`,
);

const workflows = {
	upsert: manualWorkflow('LMS: upsert a course', [lp('Upsert course', fullCourse.parameters)]),
	assignment: manualWorkflow('LMS: assign then complete', [
		lp(
			'Create course',
			simpleUpsert('e2e-assign-course', { options: { waitForCompletion: true } }),
		),
		lp('Assign', {
			resource: 'assignment',
			operation: 'assign',
			email: 'learner.one@example.com',
			externalId: 'e2e-assign-course',
			additionalFields: { dueDate: '2026-12-31', assignedDate: '2026-12-01' },
			options: { waitForCompletion: true },
		}),
		lp('Complete', {
			resource: 'assignment',
			operation: 'complete',
			email: 'learner.one@example.com',
			externalId: 'e2e-assign-course',
			endDate: '2026-12-15',
			options: { waitForCompletion: true },
		}),
	]),
	transactionWait: manualWorkflow('LMS: upsert, then wait for its transaction', [
		lp(
			'Upsert without waiting',
			simpleUpsert('e2e-waited-course', { options: { waitForCompletion: false } }),
		),
		lp('Wait for transaction', {
			resource: 'transaction',
			operation: 'wait',
			transactionId: '={{ $json.transactionId }}',
			options: { pollInterval: 0.2, timeout: 30 },
		}),
	]),
	archive: manualWorkflow('LMS: create, then archive by external ID', [
		lp(
			'Create course',
			simpleUpsert('e2e-archive-me', {
				additionalFields: {
					description: 'Soon gone',
					tags: 'legacy,old',
					level: 'beginner',
					durationSec: 600,
				},
				options: { waitForCompletion: true },
			}),
		),
		lp('Archive course', {
			resource: 'course',
			operation: 'archive',
			externalId: 'e2e-archive-me',
			// The listing has no level: it is given again, or the platform would clear it.
			additionalFields: { level: 'beginner' },
			options: { waitForCompletion: true },
		}),
	]),
	bulk: manualWorkflow(`LMS: ${BULK_SIZE} upserts through the throttle`, [
		codeNode(
			'Courses',
			`return ${JSON.stringify(bulkExternalIds)}.map((externalId) => ({ json: { externalId } }));`,
		),
		lp(
			'Upsert each',
			{
				...simpleUpsert('={{ $json.externalId }}'),
				name: '={{ "Bulk course " + $json.externalId }}',
				url: '={{ "https://learn.example.com/bulk/" + $json.externalId }}',
			},
			credentials.bulk,
		),
	]),
	getMany: manualWorkflow('LMS: list the catalog', [
		[
			lp('All courses', { resource: 'course', operation: 'getMany', returnAll: true }),
			lp('Five from the third', {
				resource: 'course',
				operation: 'getMany',
				returnAll: false,
				limit: 5,
				options: { offset: 2 },
			}),
		],
	]),
	listWithReusedToken: manualWorkflow('LMS: list one course (token reuse)', [
		lp(
			'List one',
			{ resource: 'course', operation: 'getMany', returnAll: false, limit: 1 },
			credentials.tokenReuse,
		),
	]),
	listWithShortToken: manualWorkflow('LMS: list one course (short-lived token)', [
		lp(
			'List one',
			{ resource: 'course', operation: 'getMany', returnAll: false, limit: 1 },
			credentials.shortLived,
		),
	]),
	listWithWrongSecret: manualWorkflow('LMS: list with a wrong client secret', [
		lp(
			'List one',
			{ resource: 'course', operation: 'getMany', returnAll: false, limit: 1 },
			credentials.wrongSecret,
		),
	]),
	refusedCompletion: manualWorkflow('LMS: a completion the platform refuses', [
		lp('Complete for an unknown user', {
			resource: 'assignment',
			operation: 'complete',
			email: 'nobody@unknown-domain.test',
			externalId: 'e2e-course-full',
			endDate: '2026-12-15',
			options: { waitForCompletion: true },
		}),
	]),
};

type WorkflowKey = keyof typeof workflows;
const workflowIds = {} as Record<WorkflowKey, string>;

async function run(key: WorkflowKey): Promise<ExecutionResult> {
	const execution = await n8n.execute(workflowIds[key]);
	executions.push(execution);
	return execution;
}

function expectSuccess(execution: ExecutionResult): void {
	expect(execution.errorMessage).toBeUndefined();
	expect(execution.ok).toBe(true);
}

function last<T>(list: T[]): T {
	if (list.length === 0) throw new Error('empty list');
	return list[list.length - 1];
}

async function exportedToken(credentialId: string): Promise<unknown> {
	const stored = (await n8n.exportCredentials()).find(
		(credential) => credential.id === credentialId,
	);
	return stored?.data.accessToken;
}

beforeAll(async () => {
	lms = await startSandbox({
		clientSecret,
		transactionDelayMs: TRANSACTION_DELAY_MS,
		rateLimitPerMinute: SANDBOX_RATE_PER_MINUTE,
	});
	n8n = await N8nSandbox.create({ customExtensions: [builtPackageDir] });
	await n8n.importCredentials(
		Object.values(credentials).map((credential) => ({
			...credential,
			data: { baseUrl: lms.url, clientId: lms.clientId, ...credential.data },
		})),
	);
	const keys = Object.keys(workflows) as WorkflowKey[];
	const ids = await n8n.importWorkflows(keys.map((key) => workflows[key]));
	keys.forEach((key, index) => (workflowIds[key] = ids[index]));
});

afterAll(async () => {
	n8n?.dispose();
	await lms?.close();
});

describe('course upsert', () => {
	it('sends the documented body, waits for the transaction and the course exists', async () => {
		const from = lastSeq(lms);
		const execution = await run('upsert');

		expectSuccess(execution);
		const writes = acceptedWrites(requestsSince(lms, from), COURSES_PATH);
		expect(writes.map((write) => write.body)).toEqual([fullCourse.body]);
		expect(writes[0].headers['content-type']).toContain('application/json');

		const state = lms.state();
		const transaction = state.transactions.find((entry) => entry.external_id === 'e2e-course-full');
		expect(transaction).toMatchObject({ status: 'success', path: COURSES_PATH });
		expect(outputItems(execution.runData, 'Upsert course')).toEqual([
			expect.objectContaining({
				externalId: 'e2e-course-full',
				transactionId: transaction!.id,
				status: 'success',
				message: 'Content created',
			}),
		]);
		expect(state.courses['e2e-course-full']).toMatchObject({
			...fullCourse.body,
			status: 'active',
		});
		// Waiting means polling the transaction after the write, before the run ended.
		const polls = requestsSince(lms, from).filter(
			(entry) => entry.path === `${TRANSACTION_PATH_PREFIX}${transaction!.id}`,
		);
		expect(polls.length).toBeGreaterThanOrEqual(1);
	});
});

describe('assignments', () => {
	it('assigns and completes, each waiting until the platform carried it out', async () => {
		const from = lastSeq(lms);
		const execution = await run('assignment');

		expectSuccess(execution);
		const writes = acceptedWrites(requestsSince(lms, from), USER_COURSES_PATH);
		expect(writes.map((write) => write.body)).toEqual([
			{
				email_id: 'learner.one@example.com',
				external_id: 'e2e-assign-course',
				status: 'assigned',
				due_date: '2026-12-31',
				assigned_date: '2026-12-01',
			},
			{
				email_id: 'learner.one@example.com',
				external_id: 'e2e-assign-course',
				status: 'completed',
				end_date: '2026-12-15',
			},
		]);
		expect(outputItems(execution.runData, 'Assign')).toEqual([
			expect.objectContaining({ status: 'success', message: 'Content assigned' }),
		]);
		expect(outputItems(execution.runData, 'Complete')).toEqual([
			expect.objectContaining({ status: 'success', message: 'Completion recorded' }),
		]);
		expect(lms.state().assignments['learner.one@example.com|e2e-assign-course']).toMatchObject({
			status: 'completed',
			end_date: '2026-12-15',
			writes: 2,
		});
	});

	it('fails the run with the platform’s reason when the platform refuses the write', async () => {
		const execution = await run('refusedCompletion');

		expect(execution.ok).toBe(false);
		expect(execution.errorMessage).toContain('User not found: nobody@unknown-domain.test');
		expect(lms.state().assignments['nobody@unknown-domain.test|e2e-course-full']).toBeUndefined();
	});
});

describe('transactions', () => {
	it('waits for a transaction that is still in progress until it ends', async () => {
		lms.configure({ transactionDelayMs: 1500 });
		try {
			const from = lastSeq(lms);
			const execution = await run('transactionWait');

			expectSuccess(execution);
			const [accepted] = outputItems(execution.runData, 'Upsert without waiting');
			expect(accepted).toMatchObject({
				status: 'initiated',
				confirmation: 'accepted, not confirmed',
			});
			const [waited] = outputItems(execution.runData, 'Wait for transaction');
			expect(waited).toMatchObject({ transactionId: accepted.transactionId, status: 'success' });
			const polls = requestsSince(lms, from).filter(
				(entry) => entry.path === `${TRANSACTION_PATH_PREFIX}${String(accepted.transactionId)}`,
			);
			// 1.5 s of work polled every 0.2 s or more (growing by half): more than one look.
			expect(polls.length).toBeGreaterThan(1);
			expect(waited.polls).toBe(polls.length);
			expect(lms.state().courses['e2e-waited-course']).toBeDefined();
		} finally {
			lms.configure({ transactionDelayMs: TRANSACTION_DELAY_MS });
		}
	});
});

describe('course archive', () => {
	it('finds the course by external ID and sends its whole metadata back with status archived', async () => {
		const from = lastSeq(lms);
		const execution = await run('archive');

		expectSuccess(execution);
		const [created, archived] = acceptedWrites(requestsSince(lms, from), COURSES_PATH).map(
			(write) => write.body as Record<string, unknown>,
		);
		// Every field the course was created with goes back: from the listing where it documents
		// the field, from Additional Fields where it does not (level).
		expect(archived).toMatchObject({ ...created, status: 'archived' });
		expect(created).toMatchObject({ description: 'Soon gone', tags: ['legacy', 'old'] });
		expect(outputItems(execution.runData, 'Archive course')).toEqual([
			expect.objectContaining({
				externalId: 'e2e-archive-me',
				status: 'success',
				clearedFields: [
					'content_type',
					'course_type',
					'expiration_date',
					'languages_attributes',
					'skills',
				],
			}),
		]);
		expect(lms.state().courses['e2e-archive-me']).toMatchObject({ ...created, status: 'archived' });
	});
});

describe('the client-side throttle', () => {
	it(`delivers all ${BULK_SIZE} upserts exactly once when the platform answers 429`, async () => {
		const from = lastSeq(lms);
		const execution = await run('bulk');

		expectSuccess(execution);
		const log = requestsSince(lms, from);
		const courseWrites = log.filter(
			(entry) => entry.method === 'POST' && entry.path === COURSES_PATH,
		);
		// The node asked faster than the platform allows, so the platform refused some …
		expect(courseWrites.filter((entry) => entry.status === 429).length).toBeGreaterThan(0);
		// … and every one was sent again until accepted, none twice.
		const accepted = acceptedWrites(log, COURSES_PATH).map(
			(write) => (write.body as { external_id: string }).external_id,
		);
		expect([...accepted].sort()).toEqual(bulkExternalIds);
		expect(outputItems(execution.runData, 'Upsert each').map((item) => item.externalId)).toEqual(
			bulkExternalIds,
		);

		await settleTransactions(lms);
		const state = lms.state();
		for (const externalId of bulkExternalIds) {
			expect(state.courses[externalId]).toMatchObject({ name: `Bulk course ${externalId}` });
			expect(state.writesAppliedByExternalId[externalId]).toBe(1);
		}
	});
});

describe('course getMany', () => {
	it('returns the whole catalog across pages with Return All, and a window with limit and offset', async () => {
		const missing = 150 - Object.keys(lms.state().courses).length;
		if (missing > 0) {
			await seedCourses(
				lms,
				Array.from({ length: missing }, (_, i) => ({
					external_id: `e2e-seeded-${i}`,
					name: `Seeded ${i}`,
					url: `https://learn.example.com/seeded/${i}`,
					prices_data: [],
				})),
			);
		}
		const catalog = Object.keys(lms.state().courses);
		const from = lastSeq(lms);
		const execution = await run('getMany');

		expectSuccess(execution);
		expect(
			outputItems(execution.runData, 'All courses').map((course) => course.external_id),
		).toEqual(catalog);
		expect(
			outputItems(execution.runData, 'Five from the third').map((course) => course.external_id),
		).toEqual(catalog.slice(2, 7));
		const pages = requestsSince(lms, from)
			.filter((entry) => entry.method === 'GET' && entry.path === COURSES_PATH)
			.map((entry) => ({ offset: Number(entry.query.offset), limit: Number(entry.query.limit) }));
		expect(pages.length).toBeGreaterThanOrEqual(3);
		expect(pages).toEqual(
			expect.arrayContaining([
				{ offset: 0, limit: 100 },
				{ offset: 100, limit: 100 },
			]),
		);
	});
});

describe('the access token', () => {
	it('is fetched once, saved in the credential and reused by the next execution', async () => {
		const from = lastSeq(lms);
		expectSuccess(await run('listWithReusedToken'));
		expectSuccess(await run('listWithReusedToken'));

		const log = requestsSince(lms, from);
		expect(tokenRequests(log)).toHaveLength(1);
		const tokens = bearerTokens(apiRequests(log));
		expect(tokens).toHaveLength(1);
		expect(apiRequests(log).map((entry) => entry.status)).toEqual([200, 200]);
		expect(await exportedToken(credentials.tokenReuse.id)).toBe(tokens[0]);
	});

	it('is renewed, once, before the first request once its saved expiry has passed', async () => {
		const lifetimeSec = 3;
		lms.configure({ tokenLifetimeSec: lifetimeSec });
		try {
			const from = lastSeq(lms);
			expectSuccess(await run('listWithShortToken'));
			const firstRun = requestsSince(lms, from);
			const lastTokenRequest = last(tokenRequests(firstRun));
			const oldToken = last(bearerTokens(apiRequests(firstRun)));
			await delay(
				Math.max(0, Date.parse(lastTokenRequest.time) + lifetimeSec * 1000 + 500 - Date.now()),
			);

			const second = lastSeq(lms);
			expectSuccess(await run('listWithShortToken'));

			const log = requestsSince(lms, second);
			expect(tokenRequests(log)).toHaveLength(1);
			// The token request first, then the request with the new token: the old one is never sent.
			expect(log[0].path).toBe(tokenRequests(log)[0].path);
			expect(apiRequests(log).map((entry) => entry.status)).toEqual([200]);
			const [newToken] = bearerTokens(apiRequests(log));
			expect(newToken).not.toBe(oldToken);
			// n8n saves only the tokens its own preAuthentication call returns: the saved one stays.
			expect(await exportedToken(credentials.shortLived.id)).toBe(oldToken);
		} finally {
			lms.configure({ tokenLifetimeSec: 3600 });
		}
	});

	it('fails with a clear message when the client secret is wrong', async () => {
		const execution = await run('listWithWrongSecret');

		expect(execution.ok).toBe(false);
		expect(execution.errorMessage).toMatch(/access token.*401/i);
	});
});

describe('secrets', () => {
	it('never appear in what n8n printed or in any node output', () => {
		// Includes the imports and the credential exports (written to files, not printed).
		const printed = n8n.allOutput();
		const outputs = executions.map((execution) => JSON.stringify(execution.raw)).join('\n');
		const tokens = bearerTokens(lms.requests());
		expect(tokens.length).toBeGreaterThanOrEqual(3);
		// Failed runs too: errors are where request details (and so secrets) tend to end up.
		expect(executions.some((execution) => !execution.ok)).toBe(true);
		expect(executions.every((execution) => execution.raw !== null)).toBe(true);

		const secrets = [clientSecret, wrongClientSecret, ...tokens];
		expect(leakedSecrets(printed, secrets)).toEqual([]);
		expect(leakedSecrets(outputs, secrets)).toEqual([]);
	});
});
