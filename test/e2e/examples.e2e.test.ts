/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { parseCsv } from '../../harness/csv';
import { json, startLoopback, type Loopback } from '../../harness/loopback';
import { examplesDir, loadExample, pinnedTrigger, startingWith, withParameters } from './lib/examples';
import { outputItems } from './lib/execute-output';
import {
	acceptedWrites,
	COURSES_PATH,
	lastSeq,
	requestsSince,
	seedCourses,
	USER_COURSES_PATH,
} from './lib/lms-sandbox';
import { startLrs, type RunningLrs } from './lib/lrs';
import { COMPLETED_VERB, readStore, statementAbout, storeStatements } from './lib/lrs-statements';
import { N8nSandbox, type ExecutionResult } from './lib/n8n';
import { builtPackageDir } from './lib/paths';
import { outputItemsAt } from './lib/run-data';
import { createTriggerPoller, type TriggerPoller } from './lib/poll-trigger';
import { toCustomNodeTypes, type CredentialJson, type WorkflowJson } from './lib/workflow-json';

/*
 * The example workflows of examples/, as a user imports them, inside a real
 * n8n against the LMS sandbox and a real record store. Their triggers cannot
 * fire through the CLI, so each run starts from the trigger's pinned sample
 * data, as "Test workflow" in the editor does (see startingWith); the xAPI
 * trigger example starts from what the real trigger emitted instead. What
 * changes for the test: the CSV's path and the chat URL (a local sink).
 * The README says to run the catalog sync first: the other examples assign
 * and complete its courses.
 */

const suffix = randomBytes(6).toString('hex');
const clientSecret = `e2e-example-secret-${suffix}`;
const lrsToken = `e2e-example-lrs-token-${suffix}`;

// The credentials the examples refer to, by id and name.
const LMS_CREDENTIAL = { id: 'lms-sandbox', name: 'LMS sandbox' };
const LRS_CREDENTIAL = { id: 'lrs-local', name: 'Local LRS' };

let lms: Sandbox;
let lrs: RunningLrs;
let chat: Loopback;
let filesDir: string;
let n8n: N8nSandbox;
/** The xAPI trigger of completion-chain-trigger.json, activated before anything is recorded. */
let trigger: TriggerPoller;

const catalogRows = parseCsv(fs.readFileSync(path.join(examplesDir, 'catalog.csv'), 'utf8'));
const list = (cell: string) => cell.split(',').map((value) => value.trim()).filter(Boolean);

const hrExample = loadExample('hr-event-to-assignment.json');
const hire = pinnedTrigger(hrExample);
const completionExample = loadExample('completion-chain.json');
const completions = pinnedTrigger(completionExample);
const chatExample = loadExample('completion-chain-trigger.json');

/** The examples as a user imports them, started from their pinned data. */
function fromPinnedData(example: WorkflowJson): WorkflowJson {
	const pinned = pinnedTrigger(example);
	return startingWith(toCustomNodeTypes(example), pinned.name, pinned.items);
}

const workflowIds = {} as Record<'catalogSync' | 'hr' | 'hrUnknownHire' | 'completions' | 'refusedCompletion', string>;

/** A completion the platform refuses (a learner it does not know), as the sender would post it. */
const refusedCompletion = {
	...((completions.items[0].body as { completions: Array<Record<string, unknown>> }).completions[0]),
	completionId: '9d0c4a52-7e1b-4c3a-8f65-2b9e1d7a4c10',
	email: 'not.a.learner@unknown-domain.test',
};

async function runExample(id: string): Promise<ExecutionResult> {
	const execution = await n8n.execute(id);
	expect(execution.errorMessage).toBeUndefined();
	expect(execution.ok).toBe(true);
	return execution;
}

beforeAll(async () => {
	[lms, lrs, chat] = await Promise.all([
		startSandbox({ clientSecret, transactionDelayMs: 200 }),
		startLrs({ requiredAuthorization: lrsToken }),
		// A stand-in for the chat's incoming webhook: records every request, answers 200.
		startLoopback((_, response) => json(response, 200, { ok: true })),
	]);
	// n8n 2.x reads files only inside the folders N8N_RESTRICT_FILE_ACCESS_TO names.
	filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-files-'));
	fs.copyFileSync(path.join(examplesDir, 'catalog.csv'), path.join(filesDir, 'catalog.csv'));
	n8n = await N8nSandbox.create({
		customExtensions: [builtPackageDir],
		env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir },
	});
	const credentials: CredentialJson[] = [
		{
			...LMS_CREDENTIAL,
			type: 'learningPlatformOAuth2Api',
			data: { baseUrl: lms.url, clientId: lms.clientId, clientSecret, requestsPerMinute: 300 },
		},
		{ ...LRS_CREDENTIAL, type: 'xApiLrsApi', data: { endpoint: lrs.endpoint, authentication: 'token', token: lrsToken } },
	];
	await n8n.importCredentials(credentials);

	const catalogSync = withParameters(fromPinnedData(loadExample('catalog-sync.json')), 'Config', (parameters) => {
		const catalogPath = parameters.assignments.assignments.find((field: { name: string }) => field.name === 'catalogPath');
		catalogPath.value = path.join(filesDir, 'catalog.csv');
	});
	const unknownHire = startingWith(toCustomNodeTypes(hrExample), hire.name, [
		{ ...hire.items[0], body: { ...(hire.items[0].body as object), email: 'new.person@unknown-domain.test' } },
	]);
	const refused = startingWith(toCustomNodeTypes(completionExample), completions.name, [
		{ ...completions.items[0], body: { completions: [refusedCompletion] } },
	]);
	[workflowIds.catalogSync, workflowIds.hr, workflowIds.hrUnknownHire, workflowIds.completions, workflowIds.refusedCompletion] =
		await n8n.importWorkflows([
			catalogSync,
			fromPinnedData(hrExample),
			{ ...unknownHire, id: 'lpExHireUnknown1', name: `${hrExample.name} (unknown hire)` },
			fromPinnedData(completionExample),
			{ ...refused, id: 'lpExCompRefused1', name: `${completionExample.name} (refused completion)` },
		]);

	// Activated now, so that what the examples record later counts as new.
	const triggerNode = toCustomNodeTypes(chatExample).nodes.find((node) => node.name === pinnedTrigger(chatExample).name)!;
	trigger = createTriggerPoller({
		node: triggerNode,
		credentials: { xApiLrsApi: { endpoint: lrs.endpoint, authentication: 'token', token: lrsToken } },
	});
	const activation = await trigger.tick();
	if (activation.error) throw activation.error;
});

afterAll(async () => {
	n8n?.dispose();
	if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
	await Promise.all([lms?.close(), lrs?.stop(), chat?.close()]);
});

describe('catalog-sync.json', () => {
	it('upserts every row of the CSV and archives what is no longer in it', async () => {
		const retired = {
			external_id: 'e2e-retired-course',
			name: 'A course no longer in the file',
			url: 'https://learn.example.com/courses/retired',
			prices_data: [],
			tags: ['legacy'],
		};
		const alreadyArchived = { ...retired, external_id: 'e2e-already-archived', status: 'archived' };
		await seedCourses(lms, [retired, alreadyArchived]);
		const from = lastSeq(lms);

		const execution = await runExample(workflowIds.catalogSync);

		const paid = catalogRows.filter((row) => Number(row.price) > 0);
		const free = catalogRows.filter((row) => !(Number(row.price) > 0));
		expect(paid.length).toBeGreaterThan(0);
		expect(free.length).toBeGreaterThan(0);
		expect(outputItems(execution.runData, 'Upsert paid course').map((item) => item.externalId)).toEqual(paid.map((row) => row.external_id));
		expect(outputItems(execution.runData, 'Upsert free course').map((item) => item.externalId)).toEqual(free.map((row) => row.external_id));
		for (const node of ['Upsert paid course', 'Upsert free course', 'Archive course']) {
			expect(outputItems(execution.runData, node).every((item) => item.status === 'success')).toBe(true);
		}
		// The documented listing has no status: a course archived before is archived again (no change).
		expect(outputItems(execution.runData, 'Archive course').map((item) => item.externalId).sort()).toEqual(['e2e-already-archived', 'e2e-retired-course']);

		const writes = acceptedWrites(requestsSince(lms, from), COURSES_PATH).map((write) => write.body as Record<string, unknown>);
		const state = lms.state();
		for (const row of catalogRows) {
			const expected = {
				external_id: row.external_id,
				name: row.name,
				url: row.url,
				description: row.description,
				content_type: row.content_type,
				level: row.level,
				duration_sec: Number(row.duration_sec),
				tags: list(row.tags),
				skills: list(row.skills),
				published_at: row.published_at,
				image_url: row.image_url,
				prices_data: Number(row.price) > 0 ? [{ amount: Number(row.price), currency: row.currency }] : [],
			};
			expect(writes.filter((body) => body.external_id === row.external_id)).toEqual([expect.objectContaining(expected)]);
			expect(state.courses[row.external_id]).toMatchObject({ ...expected, status: 'active' });
		}
		expect(state.courses['e2e-retired-course']).toMatchObject({ ...retired, status: 'archived' });
		expect(writes.filter((body) => body.external_id === 'e2e-already-archived')).toEqual([expect.objectContaining({ status: 'archived' })]);
		expect(state.courses['e2e-already-archived']).toMatchObject({ status: 'archived' });
	});
});

describe('hr-event-to-assignment.json', () => {
	const dueDate = (startDate: string) => {
		const date = new Date(`${startDate}T00:00:00Z`);
		date.setUTCDate(date.getUTCDate() + 14);
		return date.toISOString().slice(0, 10);
	};
	const body = hire.items[0].body as { email: string; startDate: string };

	it('assigns the onboarding course, due 14 days after the start date, and replies "assigned"', async () => {
		const from = lastSeq(lms);
		const execution = await runExample(workflowIds.hr);

		expect(acceptedWrites(requestsSince(lms, from), USER_COURSES_PATH).map((write) => write.body)).toEqual([
			{ email_id: body.email, external_id: 'onboarding-101', status: 'assigned', due_date: dueDate(body.startDate) },
		]);
		expect(outputItems(execution.runData, 'Assign onboarding course')).toEqual([
			expect.objectContaining({ status: 'success', email: body.email, externalId: 'onboarding-101' }),
		]);
		expect(outputItems(execution.runData, 'Reply: assigned')).toHaveLength(1);
		expect(execution.runData['Reply: not assigned']).toBeUndefined();
		expect(lms.state().assignments[`${body.email}|onboarding-101`]).toMatchObject({
			status: 'assigned',
			due_date: dueDate(body.startDate),
			writes: 1,
		});
	});

	it('replies "not assigned" with the platform’s reason for a hire the platform does not know', async () => {
		const execution = await runExample(workflowIds.hrUnknownHire);

		expect(execution.runData['Reply: assigned']).toBeUndefined();
		const [error] = outputItemsAt(execution.runData, 'Assign onboarding course', 1);
		expect(String(error.error)).toContain('User not found: new.person@unknown-domain.test');
		expect(outputItems(execution.runData, 'Reply: not assigned')).toHaveLength(1);
	});
});

describe('completion-chain.json', () => {
	type Completion = {
		completionId: string;
		email: string;
		name: string;
		courseExternalId: string;
		courseUrl: string;
		courseName: string;
		completedAt: string;
		scorePercent: number;
		passed: boolean;
		minutesSpent: number;
	};
	const sent = (completions.items[0].body as { completions: Completion[] }).completions;

	it('completes each course on the platform, then records one xAPI statement per completion', async () => {
		const from = lastSeq(lms);
		const execution = await runExample(workflowIds.completions);

		expect(acceptedWrites(requestsSince(lms, from), USER_COURSES_PATH).map((write) => write.body)).toEqual(
			sent.map((completion) => ({
				email_id: completion.email,
				external_id: completion.courseExternalId,
				status: 'completed',
				end_date: completion.completedAt.slice(0, 10),
			})),
		);
		expect(outputItems(execution.runData, 'Mark course complete').map((item) => item.status)).toEqual(sent.map(() => 'success'));
		expect(execution.runData['Completion not recorded']).toBeUndefined();
		expect(outputItems(execution.runData, 'Record completed statement').map((item) => item.statementId)).toEqual(
			sent.map((completion) => completion.completionId),
		);
		const state = lms.state();
		for (const completion of sent) {
			expect(state.assignments[`${completion.email}|${completion.courseExternalId}`]).toMatchObject({ status: 'completed' });
			const stored = await readStore(lrs.storeEndpoint, { statementId: completion.completionId });
			expect(stored.status).toBe(200);
			expect(stored.body).toMatchObject({
				id: completion.completionId,
				actor: { name: completion.name, mbox: `mailto:${completion.email}` },
				verb: { id: COMPLETED_VERB },
				object: { id: completion.courseUrl, definition: { name: { 'en-US': completion.courseName } } },
				result: {
					completion: true,
					success: completion.passed,
					score: { scaled: completion.scorePercent / 100 },
					duration: `PT${completion.minutesSpent}M`,
				},
			});
			expect(Date.parse(stored.body.timestamp)).toBe(Date.parse(completion.completedAt));
		}
	});
});

describe('completion-chain.json, a completion the platform refuses', () => {
	it('goes to "Completion not recorded" and records no statement', async () => {
		const execution = await runExample(workflowIds.refusedCompletion);

		const [notRecorded] = outputItems(execution.runData, 'Completion not recorded');
		expect(notRecorded).toMatchObject({ email: refusedCompletion.email });
		expect(String(notRecorded.reason)).toContain(`User not found: ${refusedCompletion.email}`);
		expect(execution.runData['Record completed statement']).toBeUndefined();
		const stored = await readStore(lrs.storeEndpoint, { statementId: refusedCompletion.completionId as string });
		expect(stored.status).toBe(404);
	});
});

describe('completion-chain-trigger.json', () => {
	it('posts one chat message for each completed statement the trigger emits', async () => {
		// A completion recorded by some other system counts as well.
		const elsewhere = statementAbout('https://learn.example.com/courses/elsewhere', COMPLETED_VERB, 'someone@example.com');
		await storeStatements(lrs.storeEndpoint, [elsewhere]);
		const tick = await trigger.tick();
		expect(tick.error).toBeUndefined();
		const statements = tick.emissions.flat().map((item) => item.json);
		const storedSinceActivation = (await readStore(lrs.storeEndpoint, { verb: COMPLETED_VERB, limit: '500' })).body.statements as Array<{ id: string }>;
		expect(statements.map((statement) => statement.id).sort()).toEqual(storedSinceActivation.map((statement) => statement.id).sort());
		expect(statements.map((statement) => statement.id)).toContain(elsewhere.id);

		const triggerName = pinnedTrigger(chatExample).name;
		const workflow = withParameters(startingWith(toCustomNodeTypes(chatExample), triggerName, statements), 'Post to team chat', (parameters) => {
			parameters.url = `${chat.url}/hooks/learning-wins`;
		});
		const id = await n8n.importWorkflows([workflow]).then(([imported]) => imported);
		const execution = await runExample(id);

		const messages = chat.received.map((request) => JSON.parse(request.body) as Record<string, string>);
		expect(chat.received.every((request) => request.method === 'POST' && request.url === '/hooks/learning-wins')).toBe(true);
		expect(messages.map((message) => message.statementId)).toEqual(statements.map((statement) => statement.id));
		expect(outputItems(execution.runData, 'Post to team chat')).toHaveLength(statements.length);
		for (const statement of statements as Array<{ id: string; actor: { name: string; mbox: string }; object: { id: string } }>) {
			const message = messages.find((entry) => entry.statementId === statement.id)!;
			expect(message).toMatchObject({ learner: statement.actor.mbox.replace('mailto:', ''), course: statement.object.id });
			expect(message.text).toContain(statement.actor.name);
		}
	});
});
