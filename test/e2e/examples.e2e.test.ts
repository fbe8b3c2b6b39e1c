import { statementIdFor } from '../../nodes/XApi/transport/statementIds';
import {
	CHAT_HOOK_PATH,
	exampleCatalogRows,
	startExampleEnvironment,
	type ExampleEnvironment,
} from './lib/example-environment';
import {
	loadExample,
	onboardingDueDate,
	pinnedTrigger,
	startingWith,
	type Completion,
} from './lib/examples';
import { outputItems } from '../../harness/executeOutput';
import {
	acceptedWrites,
	COURSES_PATH,
	lastSeq,
	requestsSince,
	seedCourses,
	USER_COURSES_PATH,
} from '../../harness/lmsSandbox';
import { COMPLETED_VERB, readStore, statementAbout, storeStatements } from './lib/lrs-statements';
import type { ExecutionResult } from '../../harness/n8n';
import { outputItemsAt } from './lib/run-data';
import { createTriggerPoller, type TriggerPoller } from './lib/poll-trigger';
import { toCustomNodeTypes, type WorkflowJson } from '../../harness/workflowJson';

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

let env: ExampleEnvironment;
/** The xAPI trigger of completion-chain-trigger.json, activated before anything is recorded. */
let trigger: TriggerPoller;

const catalogRows = exampleCatalogRows();
const list = (cell: string) =>
	cell
		.split(',')
		.map((value) => value.trim())
		.filter(Boolean);

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

const workflowIds = {} as Record<
	'catalogSync' | 'hr' | 'hrUnknownHire' | 'completions' | 'refusedCompletion',
	string
>;

/** A completion the platform refuses (a learner it does not know), as the sender would post it. */
const refusedCompletion = {
	...(completions.items[0].body as { completions: Array<Record<string, unknown>> }).completions[0],
	completionId: '9d0c4a52-7e1b-4c3a-8f65-2b9e1d7a4c10',
	email: 'not.a.learner@unknown-domain.test',
};

async function runExample(id: string): Promise<ExecutionResult> {
	const execution = await env.n8n.execute(id);
	expect(execution.errorMessage).toBeUndefined();
	expect(execution.ok).toBe(true);
	return execution;
}

beforeAll(async () => {
	env = await startExampleEnvironment('e2e-example');

	const catalogSync = env.withCatalogPath(fromPinnedData(loadExample('catalog-sync.json')));
	const unknownHire = startingWith(toCustomNodeTypes(hrExample), hire.name, [
		{
			...hire.items[0],
			body: { ...(hire.items[0].body as object), email: 'new.person@unknown-domain.test' },
		},
	]);
	const refused = startingWith(toCustomNodeTypes(completionExample), completions.name, [
		{ ...completions.items[0], body: { completions: [refusedCompletion] } },
	]);
	[
		workflowIds.catalogSync,
		workflowIds.hr,
		workflowIds.hrUnknownHire,
		workflowIds.completions,
		workflowIds.refusedCompletion,
	] = await env.n8n.importWorkflows([
		catalogSync,
		fromPinnedData(hrExample),
		{ ...unknownHire, id: 'lpExHireUnknown1', name: `${hrExample.name} (unknown hire)` },
		fromPinnedData(completionExample),
		{ ...refused, id: 'lpExCompRefused1', name: `${completionExample.name} (refused completion)` },
	]);

	// Activated now, so that what the examples record later counts as new.
	const triggerNode = toCustomNodeTypes(chatExample).nodes.find(
		(node) => node.name === pinnedTrigger(chatExample).name,
	)!;
	trigger = createTriggerPoller({
		node: triggerNode,
		credentials: { xApiLrsApi: env.lrsCredentialData },
	});
	const activation = await trigger.tick();
	if (activation.error) throw activation.error;
});

afterAll(async () => {
	await env?.close();
});

describe('catalog-sync.json', () => {
	const expectedCourse = (row: Record<string, string>) => ({
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
		prices_data:
			Number(row.price) > 0 ? [{ amount: Number(row.price), currency: row.currency }] : [],
	});

	it('creates every course of the CSV on an empty platform, one output item per row', async () => {
		const from = lastSeq(env.lms);
		const execution = await runExample(workflowIds.catalogSync);

		const output = outputItems(execution.runData, 'Sync catalog');
		expect(output.map((item) => [item.externalId, item.action, item.status])).toEqual(
			catalogRows.map((row) => [row.external_id, 'created', 'success']),
		);
		const writes = acceptedWrites(requestsSince(env.lms, from), COURSES_PATH).map(
			(write) => write.body as Record<string, unknown>,
		);
		const state = env.lms.state();
		for (const row of catalogRows) {
			expect(writes.filter((body) => body.external_id === row.external_id)).toEqual([
				expect.objectContaining(expectedCourse(row)),
			]);
			expect(state.courses[row.external_id]).toMatchObject({
				...expectedCourse(row),
				status: 'active',
			});
		}
	});

	it('archives a course no longer in the file, and changes nothing else on the platform', async () => {
		const retired = {
			external_id: 'e2e-retired-course',
			name: 'A course no longer in the file',
			url: 'https://learn.example.com/courses/retired',
			prices_data: [],
			tags: ['legacy'],
		};
		await seedCourses(env.lms, [retired]);
		const before = env.lms.state().courses;
		const from = lastSeq(env.lms);

		const execution = await runExample(workflowIds.catalogSync);

		const output = outputItems(execution.runData, 'Sync catalog');
		expect(
			output.filter((item) => item.action === 'archived').map((item) => item.externalId),
		).toEqual(['e2e-retired-course']);
		expect(
			output.filter((item) => item.action !== 'archived').map((item) => item.externalId),
		).toEqual(catalogRows.map((row) => row.external_id));
		const archives = acceptedWrites(requestsSince(env.lms, from), COURSES_PATH)
			.map((write) => write.body as Record<string, unknown>)
			.filter((body) => body.status === 'archived');
		expect(archives).toEqual([expect.objectContaining({ ...retired, status: 'archived' })]);
		const state = env.lms.state();
		expect(state.courses['e2e-retired-course']).toMatchObject({ ...retired, status: 'archived' });
		for (const row of catalogRows) {
			expect(state.courses[row.external_id]).toMatchObject({
				...expectedCourse(row),
				status: 'active',
				id: before[row.external_id].id,
			});
		}
	});
});

describe('hr-event-to-assignment.json', () => {
	const body = hire.items[0].body as { email: string; startDate: string };

	it('assigns the onboarding course, due 14 days after the start date, and replies "assigned"', async () => {
		const from = lastSeq(env.lms);
		const execution = await runExample(workflowIds.hr);

		expect(
			acceptedWrites(requestsSince(env.lms, from), USER_COURSES_PATH).map((write) => write.body),
		).toEqual([
			{
				email_id: body.email,
				external_id: 'onboarding-101',
				status: 'assigned',
				due_date: onboardingDueDate(body.startDate),
			},
		]);
		expect(outputItems(execution.runData, 'Assign onboarding course')).toEqual([
			expect.objectContaining({
				status: 'success',
				email: body.email,
				externalId: 'onboarding-101',
			}),
		]);
		expect(outputItems(execution.runData, 'Reply: assigned')).toHaveLength(1);
		expect(execution.runData['Reply: not assigned']).toBeUndefined();
		expect(env.lms.state().assignments[`${body.email}|onboarding-101`]).toMatchObject({
			status: 'assigned',
			due_date: onboardingDueDate(body.startDate),
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
	const sent = (completions.items[0].body as { completions: Completion[] }).completions;

	it('completes each course on the platform, then records one xAPI statement per completion', async () => {
		const from = lastSeq(env.lms);
		const execution = await runExample(workflowIds.completions);

		expect(
			acceptedWrites(requestsSince(env.lms, from), USER_COURSES_PATH).map((write) => write.body),
		).toEqual(
			sent.map((completion) => ({
				email_id: completion.email,
				external_id: completion.courseExternalId,
				status: 'completed',
				end_date: completion.completedAt.slice(0, 10),
			})),
		);
		expect(
			outputItems(execution.runData, 'Mark course complete').map((item) => item.status),
		).toEqual(sent.map(() => 'success'));
		expect(execution.runData['Completion not recorded']).toBeUndefined();
		expect(
			outputItems(execution.runData, 'Record completed statement').map((item) => item.statementId),
		).toEqual(sent.map((completion) => statementIdFor(completion.completionId)));
		const state = env.lms.state();
		for (const completion of sent) {
			expect(state.assignments[`${completion.email}|${completion.courseExternalId}`]).toMatchObject(
				{ status: 'completed' },
			);
			const stored = await readStore(env.lrs.storeEndpoint, {
				statementId: statementIdFor(completion.completionId),
			});
			expect(stored.status).toBe(200);
			expect(stored.body).toMatchObject({
				id: statementIdFor(completion.completionId),
				actor: { name: completion.name, mbox: `mailto:${completion.email}` },
				verb: { id: COMPLETED_VERB },
				object: {
					id: completion.courseUrl,
					definition: { name: { 'en-US': completion.courseName } },
				},
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
		const stored = await readStore(env.lrs.storeEndpoint, {
			statementId: statementIdFor(refusedCompletion.completionId as string),
		});
		expect(stored.status).toBe(404);
	});
});

describe('completion-chain-trigger.json', () => {
	it('posts one chat message for each completed statement the trigger emits', async () => {
		// A completion recorded by some other system counts as well.
		const elsewhere = statementAbout(
			'https://learn.example.com/courses/elsewhere',
			COMPLETED_VERB,
			'someone@example.com',
		);
		await storeStatements(env.lrs.storeEndpoint, [elsewhere]);
		const tick = await trigger.tick();
		expect(tick.error).toBeUndefined();
		const statements = tick.emissions.flat().map((item) => item.json);
		const storedSinceActivation = (
			await readStore(env.lrs.storeEndpoint, { verb: COMPLETED_VERB, limit: '500' })
		).body.statements as Array<{ id: string }>;
		expect(statements.map((statement) => statement.id).sort()).toEqual(
			storedSinceActivation.map((statement) => statement.id).sort(),
		);
		expect(statements.map((statement) => statement.id)).toContain(elsewhere.id);

		const triggerName = pinnedTrigger(chatExample).name;
		const workflow = env.withChatUrl(
			startingWith(toCustomNodeTypes(chatExample), triggerName, statements),
		);
		const id = await env.n8n.importWorkflows([workflow]).then(([imported]) => imported);
		const execution = await runExample(id);

		const messages = env.chat.received.map(
			(request) => JSON.parse(request.body) as Record<string, string>,
		);
		expect(
			env.chat.received.every(
				(request) => request.method === 'POST' && request.url === CHAT_HOOK_PATH,
			),
		).toBe(true);
		expect(messages.map((message) => message.statementId)).toEqual(
			statements.map((statement) => statement.id),
		);
		expect(outputItems(execution.runData, 'Post to team chat')).toHaveLength(statements.length);
		for (const statement of statements as Array<{
			id: string;
			actor: { name: string; mbox: string };
			object: { id: string };
		}>) {
			const message = messages.find((entry) => entry.statementId === statement.id)!;
			expect(message).toMatchObject({
				learner: statement.actor.mbox.replace('mailto:', ''),
				course: statement.object.id,
			});
			expect(message.text).toContain(statement.actor.name);
		}
	});
});
