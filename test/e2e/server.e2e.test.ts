/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { statementIdFor } from '../../nodes/XApi/transport/statementIds';
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	CHAT_HOOK_PATH,
	exampleCatalogRows,
	startExampleEnvironment,
	type ExampleEnvironment,
} from './lib/example-environment';
import {
	examplesDir,
	loadExample,
	onboardingDueDate,
	pinnedTrigger,
	withParameters,
	type Completion,
} from './lib/examples';
import {
	acceptedWrites,
	bearerTokens,
	COURSES_PATH,
	lastSeq,
	requestsSince,
	seedCourses,
	USER_COURSES_PATH,
} from '../../harness/lmsSandbox';
import {
	ATTEMPTED_VERB,
	COMPLETED_VERB,
	readStore,
	statementAbout,
	statementGets,
	storeStatements,
	type Statement,
} from './lib/lrs-statements';
import {
	executionErrorMessage,
	executionsOf,
	queryDatabase,
	savedStaticData,
	startN8nServer,
	waitUntil,
	type ExecutionRow,
	type N8nServer,
} from '../../harness/n8nServer';
import { leakedSecrets } from './lib/secrets';
import { JOINER, LEAVER, MOVED, requiredPairs, secondNightRoster } from '../../harness/roster';
import { toCustomNodeTypes, type WorkflowJson, type WorkflowNodeJson } from '../../harness/workflowJson';

/*
 * Server mode: the example workflows active in a running n8n (`n8n start`),
 * started by their own triggers, as a deployed n8n runs them: the Schedule
 * Trigger of catalog-sync.json fires by itself, the HR system and the
 * completions sender call the Webhook nodes' production URLs over HTTP, and
 * the xAPI Trigger of completion-chain-trigger.json polls the record store on
 * its schedule and once at each activation. n8n is stopped and started again
 * in between: what the trigger emitted before must not come again, and what
 * was recorded while n8n was down must come once.
 *
 * The workflows are imported as shipped; what changes is what a user sets:
 * the credentials they refer to, the CSV's path, the chat URL (a local sink),
 * and the sync's schedule (every SCHEDULE_SECONDS seconds instead of nightly,
 * so that the test need not wait for 02:00).
 *
 * The tests run in order and build on each other: the sync creates the
 * courses the hire is assigned to and the completions complete.
 */

/** The Schedule Trigger's smallest unit is the second; n8n runs it as the cron `*\/20 * * * * *`. */
const SCHEDULE_SECONDS = 20;

const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/** The node a workflow starts at: the only one (sticky notes aside) that no connection leads to. */
function startNode(workflow: WorkflowJson): WorkflowNodeJson {
	const targets = new Set(
		Object.values(
			workflow.connections as Record<string, Record<string, Array<Array<{ node: string }> | null>>>,
		)
			.flatMap((byType) => Object.values(byType))
			.flat(2)
			.filter((connection): connection is { node: string } => Boolean(connection))
			.map((connection) => connection.node),
	);
	const starts = workflow.nodes.filter(
		(node) => node.type !== STICKY_NOTE && !targets.has(node.name),
	);
	if (starts.length !== 1) {
		throw new Error(
			`${workflow.name}: expected one start node, found ${starts.map((node) => node.name).join(', ')}`,
		);
	}
	return starts[0];
}

const hrExample = toCustomNodeTypes(loadExample('hr-event-to-assignment.json'));
const catalogExample = toCustomNodeTypes(loadExample('catalog-sync.json'));
const completionsExample = toCustomNodeTypes(loadExample('completion-chain.json'));
const chatExample = toCustomNodeTypes(loadExample('completion-chain-trigger.json'));
const rosterExample = toCustomNodeTypes(loadExample('roster-sync.json'));
const reviewExample = toCustomNodeTypes(loadExample('roster-review.json'));

const hrWebhook = startNode(hrExample);
const catalogSchedule = startNode(catalogExample);
const rosterSchedule = startNode(rosterExample);
const completionsWebhook = startNode(completionsExample);
const completionTrigger = startNode(chatExample);

const hire = pinnedTrigger(hrExample).items[0].body as {
	email: string;
	name: string;
	startDate: string;
};
const completionsBody = pinnedTrigger(completionsExample).items[0].body as {
	completions: Completion[];
};
const catalogRows = exampleCatalogRows();

let env: ExampleEnvironment;
/** Every server started, in order; the last one is the one running. */
const servers: N8nServer[] = [];
const server = () => servers[servers.length - 1];
const ids = {} as Record<
	'hr' | 'catalog' | 'completions' | 'chat' | 'roster' | 'bounded' | 'review',
	string
>;

/** A first night bounded by Max Writes per Run: its own learners, so its writes can be counted. */
const BOUNDED_LIMIT = 12;
const REVIEW_PATH = 'roster-review';
const REVIEW_HOOK = '/hooks/roster-review';

/**
 * roster.csv with other learners (the sandbox's other known domain, and a prefix): a roster of
 * its own on the same courses, whose writes the main roster's test leaves out.
 */
const rosterOf = (prefix: string) =>
	fs
		.readFileSync(path.join(examplesDir, 'roster.csv'), 'utf8')
		.replace(/^([^,\n]+)@example\.com,/gm, `${prefix}$1@example.org,`);
const isBounded = (email: unknown) => /^bounded\..*@example\.org$/.test(String(email));
const isReview = (email: unknown) => /^review\..*@example\.org$/.test(String(email));

/** An example that reads its own copy of a roster file (and, for the review, posts to the chat stand-in). */
function withRosterFile(workflow: WorkflowJson, file: string, reviewHook?: string): WorkflowJson {
	return withParameters(workflow, 'Config', (parameters) => {
		for (const field of parameters.assignments.assignments as Array<{
			name: string;
			value: string;
		}>) {
			if (field.name === 'rosterPath') field.value = path.join(env.filesDir, file);
			if (field.name === 'reviewWebhookUrl' && reviewHook) field.value = reviewHook;
		}
	});
}
/** The catalog sync's executions on the first server. */
const catalogRunsBeforeRestart = new Set<string>();
/** What the webhooks answered, to look for secrets in. */
const replies: string[] = [];

/** The workflows as a user deploys them: the examples with their credentials, file path, chat URL and schedule set. */
function deployedWorkflows(): WorkflowJson[] {
	const catalog = withParameters(
		env.withCatalogPath(catalogExample),
		catalogSchedule.name,
		(parameters) => {
			parameters.rule = { interval: [{ field: 'seconds', secondsInterval: SCHEDULE_SECONDS }] };
		},
	);
	const roster = withParameters(
		env.withRosterPath(rosterExample),
		rosterSchedule.name,
		(parameters) => {
			parameters.rule = { interval: [{ field: 'seconds', secondsInterval: SCHEDULE_SECONDS }] };
		},
	);
	const bounded = withParameters(
		withParameters(
			withRosterFile(rosterExample, 'roster-bounded.csv'),
			rosterSchedule.name,
			(parameters) => {
				parameters.rule = { interval: [{ field: 'seconds', secondsInterval: SCHEDULE_SECONDS }] };
			},
		),
		'Sync assignments',
		(parameters) => {
			parameters.options.maxWritesPerRun = BOUNDED_LIMIT;
		},
	);
	// The review's nights are started by a call (a webhook instead of its schedule), so that a
	// held night is not followed by more held nights while the test approves it.
	const review = withRosterFile(
		reviewExample,
		'roster-review.csv',
		`${env.chat.url}${REVIEW_HOOK}`,
	);
	const start = startNode(review);
	Object.assign(start, {
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		parameters: { httpMethod: 'POST', path: REVIEW_PATH, options: {} },
		webhookId: '6f7e2c1a-5b3d-4e8f-9a0b-1c2d3e4f5a6b',
	});
	return [
		hrExample,
		catalog,
		completionsExample,
		env.withChatUrl(chatExample),
		roster,
		{ ...bounded, id: 'lpExRosterBound1', name: `${rosterExample.name} (bounded)` },
		review,
	];
}

/** Fails with n8n's own error message when one of the workflow's executions failed. */
async function assertNoFailedExecution(
	workflowId: string,
	rows?: ExecutionRow[],
): Promise<ExecutionRow[]> {
	const executions = rows ?? (await executionsOf(env.n8n, workflowId));
	const failed = executions.filter((execution) =>
		['error', 'crashed', 'canceled'].includes(execution.status),
	);
	if (failed.length > 0) {
		const messages = await Promise.all(
			failed.map((execution) => executionErrorMessage(env.n8n, execution.id)),
		);
		throw new Error(
			`workflow ${workflowId}: ${failed.length} failed execution(s): ${messages.join(' | ')}\n` +
				`n8n output:\n${serverTail()}`,
		);
	}
	return executions;
}

async function postJson(url: string, body: unknown): Promise<{ status: number; body: any }> {
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(120_000),
	});
	const text = await answer.text();
	replies.push(text);
	return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

type ChatMessage = { text: string; learner: string; course: string; statementId: string };
const chatMessages = (): ChatMessage[] =>
	env.chat.received
		.filter((request) => request.url === CHAT_HOOK_PATH)
		.map((request) => JSON.parse(request.body) as ChatMessage);

/** How many chat messages each statement id got. */
function messageCounts(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const message of chatMessages())
		counts.set(message.statementId, (counts.get(message.statementId) ?? 0) + 1);
	return counts;
}

/** Waits until no execution of the workflow is still running (n8n records an execution before it ends). */
async function settledExecutions(workflowId: string, timeoutMs = 60_000): Promise<ExecutionRow[]> {
	return await waitFor(`not every execution of ${workflowId} had ended`, timeoutMs, async () => {
		const rows = await executionsOf(env.n8n, workflowId);
		return rows.every((row) => !['new', 'running', 'waiting'].includes(row.status))
			? rows
			: undefined;
	});
}

/**
 * Waits until the chat got a message for each of the statements, then until
 * the xAPI Trigger's workflow has no run in progress; fails on a failed run.
 * Returns that workflow's executions.
 */
async function chatRunsOncePosted(
	what: string,
	timeoutMs: number,
	statementIds: string[],
): Promise<ExecutionRow[]> {
	await waitFor(what, timeoutMs, async () => {
		await assertNoFailedExecution(ids.chat);
		const counts = messageCounts();
		return statementIds.every((id) => counts.has(id)) ? true : undefined;
	});
	const executions = await settledExecutions(ids.chat);
	await assertNoFailedExecution(ids.chat, executions);
	return executions;
}

/** The last lines the running server printed, for failure reports. */
const serverTail = () =>
	server()
		.output()
		.split('\n')
		.filter((line) => !/migration/i.test(line))
		.slice(-60)
		.join('\n');

/** waitUntil, with the server's last output lines in the failure message. */
async function waitFor<T>(
	what: string,
	timeoutMs: number,
	check: () => Promise<T | undefined> | T | undefined,
	intervalMs?: number,
): Promise<T> {
	try {
		return await waitUntil(what, timeoutMs, check, intervalMs);
	} catch (error) {
		(error as Error).message += `\nn8n output:\n${serverTail()}`;
		throw error;
	}
}

/** Where the record store's request log stood when the running server was started. */
let lrsRequestsAtStart = 0;

/** Starts `n8n start` and waits until both webhooks are registered. */
async function startServer(): Promise<void> {
	lrsRequestsAtStart = env.lrs.requests.length;
	servers.push(
		await startN8nServer(env.n8n, {
			webhookPaths: [
				hrWebhook.parameters.path as string,
				completionsWebhook.parameters.path as string,
				REVIEW_PATH,
			],
		}),
	);
}

/** The xAPI Trigger's statement queries (it filters by verb) answered since the running server started. */
const triggerPollsSinceStart = () =>
	statementGets(env.lrs.requests.slice(lrsRequestsAtStart)).filter(
		(request) =>
			request.status === 200 && new URL(request.url, 'http://x').searchParams.has('verb'),
	);

beforeAll(async () => {
	env = await startExampleEnvironment('e2e-server');
	fs.writeFileSync(path.join(env.filesDir, 'roster-bounded.csv'), rosterOf('bounded.'));
	fs.writeFileSync(path.join(env.filesDir, 'roster-review.csv'), rosterOf('review.'));
	[ids.hr, ids.catalog, ids.completions, ids.chat, ids.roster, ids.bounded, ids.review] =
		await env.n8n.importWorkflows(deployedWorkflows());
	// Only content created through the API can be assigned: the roster's courses exist from the start.
	const rosterCourses = new Set(
		requiredPairs(fs.readFileSync(path.join(env.filesDir, 'roster.csv'), 'utf8')).map(
			(pair) => pair.course,
		),
	);
	await seedCourses(
		env.lms,
		catalogRows
			.filter((row) => rosterCourses.has(row.external_id))
			.map((row) => ({
				external_id: row.external_id,
				name: row.name,
				url: row.url,
				prices_data: [],
			})),
	);
	for (const id of Object.values(ids)) await env.n8n.activate(id);

	await startServer();
}, 400_000);

afterAll(async () => {
	for (const running of servers) await running.stop();
	await env?.close();
}, 120_000);

describe('the examples as shipped', () => {
	it('start with a Webhook (with a webhookId), a Schedule Trigger and the xAPI Trigger', () => {
		expect(hrWebhook).toMatchObject({
			type: 'n8n-nodes-base.webhook',
			parameters: { httpMethod: 'POST', path: 'new-hire' },
		});
		expect(completionsWebhook).toMatchObject({
			type: 'n8n-nodes-base.webhook',
			parameters: { httpMethod: 'POST', path: 'course-completions' },
		});
		for (const webhook of [hrWebhook, completionsWebhook])
			expect(webhook.webhookId).toMatch(/^[0-9a-f-]{36}$/);
		expect(catalogSchedule.type).toBe('n8n-nodes-base.scheduleTrigger');
		expect(completionTrigger.type).toBe('CUSTOM.xApiTrigger');
	});
});

describe('Schedule Trigger: catalog-sync.json', () => {
	it('fires by itself and makes the platform’s catalog match the CSV', async () => {
		const [firstRun] = await waitFor(
			`the schedule (every ${SCHEDULE_SECONDS} s) did not fire and finish a run`,
			90_000,
			async () => {
				const finished = (await assertNoFailedExecution(ids.catalog)).filter(
					(row) => row.status === 'success',
				);
				// A tick that fires while the first night still runs ends at once, writing nothing;
				// the roster's courses were seeded before, without their prices.
				const courses = env.lms.state().courses;
				const written = catalogRows.every(
					(row) =>
						JSON.stringify(courses[row.external_id]?.prices_data ?? null) ===
						JSON.stringify(
							Number(row.price) > 0 ? [{ amount: Number(row.price), currency: row.currency }] : [],
						),
				);
				return finished.length > 0 && written ? finished : undefined;
			},
			1_000,
		);
		expect(firstRun.mode).toBe('trigger');

		const state = env.lms.state();
		for (const row of catalogRows) {
			expect(state.courses[row.external_id]).toMatchObject({
				external_id: row.external_id,
				name: row.name,
				url: row.url,
				status: 'active',
				prices_data:
					Number(row.price) > 0 ? [{ amount: Number(row.price), currency: row.currency }] : [],
			});
		}
	});

	it('on a later night writes only what changed in the file, and archives what left it', async () => {
		// The first run's state is saved with the workflow: one short fingerprint per course.
		const saved = await waitFor('the sync saved no remembered state', 30_000, async () => {
			const data = await savedStaticData(env.n8n, ids.catalog);
			const scopes = Object.values(data).find((value: any) => value?.syncedCourses)?.syncedCourses;
			const memory = scopes && (Object.values(scopes)[0] as Record<string, string>);
			return memory && Object.keys(memory).length === catalogRows.length ? memory : undefined;
		});
		expect(JSON.stringify(saved).length / catalogRows.length).toBeLessThanOrEqual(64);

		// The file changes: one course gets a new name and level; a course on the platform is not in it.
		const changed = catalogRows[catalogRows.length - 1];
		const csvPath = path.join(env.filesDir, 'catalog.csv');
		const csv = fs.readFileSync(csvPath, 'utf8');
		const edited = csv.replace(
			`${changed.external_id},${changed.name},`,
			`${changed.external_id},${changed.name} (2nd edition),`,
		);
		expect(edited).not.toBe(csv);
		// A run still going (a slow first night overlaps the next tick) is not this night's.
		await settledExecutions(ids.catalog);
		const from = lastSeq(env.lms);
		await seedCourses(env.lms, [
			{
				external_id: 'e2e-server-retired',
				name: 'Retired',
				url: 'https://learn.example.com/courses/retired',
				prices_data: [],
			},
		]);
		const fromSync = lastSeq(env.lms);
		fs.writeFileSync(csvPath, edited);
		// Executions are recorded when they start: any other one started after the change.
		const earlier = new Set((await executionsOf(env.n8n, ids.catalog)).map((row) => row.id));

		await waitFor(
			`no scheduled run started after the change and finished`,
			90_000,
			async () =>
				(await assertNoFailedExecution(ids.catalog)).find(
					(row) => row.status === 'success' && !earlier.has(row.id),
				),
			1_000,
		);
		expect(from).toBeLessThan(fromSync);
		const writes = acceptedWrites(requestsSince(env.lms, fromSync), COURSES_PATH).map(
			(write) => write.body as Record<string, unknown>,
		);
		expect(writes.map((body) => [body.external_id, body.name, body.status ?? 'active'])).toEqual(
			expect.arrayContaining([
				[changed.external_id, `${changed.name} (2nd edition)`, 'active'],
				['e2e-server-retired', 'Retired', 'archived'],
			]),
		);
		expect(writes).toHaveLength(2);
		const state = env.lms.state();
		expect(state.courses[changed.external_id]).toMatchObject({
			name: `${changed.name} (2nd edition)`,
			level: changed.level,
		});
		expect(state.courses['e2e-server-retired']).toMatchObject({ status: 'archived' });
	});
});

describe('Schedule Trigger: roster-sync.json', () => {
	const rosterPath = () => path.join(env.filesDir, 'roster.csv');
	const assignmentsMatch = (csv: string) => {
		const state = env.lms.state().assignments;
		return requiredPairs(csv).filter((pair) => {
			const stored = state[`${pair.email}|${pair.course}`];
			return stored?.status !== 'assigned' || stored.due_date !== pair.due;
		});
	};

	it('fires by itself and assigns every required course, due 30 days after the start date', async () => {
		await waitFor(
			`the roster schedule (every ${SCHEDULE_SECONDS} s) did not fire and finish a run`,
			90_000,
			async () => {
				const finished = (await assertNoFailedExecution(ids.roster)).filter(
					(row) => row.status === 'success',
				);
				return finished.length > 0 ? finished : undefined;
			},
			1_000,
		);
		// A run that overlapped a slower one ends first with its writes deferred: wait for both.
		await settledExecutions(ids.roster);
		expect(assignmentsMatch(fs.readFileSync(rosterPath(), 'utf8'))).toEqual([]);
	});

	it('on the next night writes only the joiner, the moved due dates and the leaver’s withdrawals', async () => {
		const pairs = requiredPairs(fs.readFileSync(rosterPath(), 'utf8'));
		await waitFor('the roster sync saved no memory', 30_000, async () => {
			const data = await savedStaticData(env.n8n, ids.roster);
			const scopes = Object.values(data).find(
				(value: any) => value?.syncedAssignments,
			)?.syncedAssignments;
			const memory = scopes && (Object.values(scopes)[0] as Record<string, string>);
			// Each learner once, with a number and a dates fingerprint per course.
			return memory && Object.keys(memory).length === new Set(pairs.map((p) => p.email)).size + 1
				? memory
				: undefined;
		});
		const night2 = secondNightRoster(fs.readFileSync(rosterPath(), 'utf8'));
		await settledExecutions(ids.roster);
		const fromSync = lastSeq(env.lms);
		const earlier = new Set((await executionsOf(env.n8n, ids.roster)).map((row) => row.id));
		fs.writeFileSync(rosterPath(), night2);
		await waitFor(
			'no scheduled roster run started after the change and finished',
			90_000,
			async () =>
				(await assertNoFailedExecution(ids.roster)).find(
					(row) => row.status === 'success' && !earlier.has(row.id),
				),
			1_000,
		);
		// This roster's learners only: the bounded and the review rosters write their own meanwhile.
		const writes = acceptedWrites(requestsSince(env.lms, fromSync), USER_COURSES_PATH)
			.map((write) => write.body as Record<string, unknown>)
			.filter((body) => String(body.email_id).endsWith('@example.com'));
		expect(
			writes.map((body) => `${body.email_id} ${body.external_id} ${body.status}`).sort(),
		).toEqual(
			[
				`${JOINER} data-privacy-gdpr assigned`,
				`${JOINER} finance-for-managers assigned`,
				`${JOINER} sec-awareness-2026 assigned`,
				`${LEAVER} sec-awareness-2026 withdraw`,
				`${LEAVER} secure-coding withdraw`,
				`${MOVED} sec-awareness-2026 assigned`,
				`${MOVED} secure-coding assigned`,
			].sort(),
		);
		expect(assignmentsMatch(night2)).toEqual([]);
		const state = env.lms.state().assignments;
		for (const course of ['sec-awareness-2026', 'secure-coding'])
			expect(state[`${LEAVER}|${course}`]).toMatchObject({ status: 'withdraw' });
	});
});

describe('Max Writes per Run: a first night bounded over scheduled runs', () => {
	it('converges over several scheduled runs, every pair written once', async () => {
		const pairs = requiredPairs(
			fs.readFileSync(path.join(env.filesDir, 'roster-bounded.csv'), 'utf8'),
		);
		await waitFor(
			`the bounded roster (${pairs.length} pairs, ${BOUNDED_LIMIT} a run) did not converge`,
			150_000,
			() => {
				const state = env.lms.state().assignments;
				return pairs.every((pair) => state[`${pair.email}|${pair.course}`]?.status === 'assigned')
					? true
					: undefined;
			},
			1_000,
		);
		const writes = acceptedWrites(env.lms.requests(), USER_COURSES_PATH)
			.map((write) => write.body as Record<string, unknown>)
			.filter((body) => isBounded(body.email_id))
			.map((body) => `${body.email_id} ${body.external_id}`);
		expect(writes.sort()).toEqual(pairs.map((pair) => `${pair.email} ${pair.course}`).sort());
		// The run whose writes completed the roster may not have ended yet: count it once it has.
		await settledExecutions(ids.bounded);
		const runs = (await assertNoFailedExecution(ids.bounded)).filter(
			(row) => row.status === 'success',
		);
		expect(runs.length).toBeGreaterThanOrEqual(Math.ceil(pairs.length / BOUNDED_LIMIT));
	});
});

describe('Review: roster-review.json holds a truncated export until it is approved', () => {
	const reviewPath = () => path.join(env.filesDir, 'roster-review.csv');
	const reviewWrites = (afterSeq: number) =>
		acceptedWrites(requestsSince(env.lms, afterSeq), USER_COURSES_PATH)
			.map((write) => write.body as Record<string, unknown>)
			.filter((body) => isReview(body.email_id));
	const finishedRun = async (earlier: Set<string>, status: string) =>
		await waitFor(`no review run ended as ${status}`, 120_000, async () =>
			(await executionsOf(env.n8n, ids.review)).find(
				(row) => row.status === status && !earlier.has(row.id),
			),
		);

	it('a normal night goes straight through', async () => {
		const from = lastSeq(env.lms);
		const reply = await postJson(server().webhookUrl(REVIEW_PATH), {});
		expect(reply.status).toBe(200);
		await finishedRun(new Set(), 'success');
		const pairs = requiredPairs(fs.readFileSync(reviewPath(), 'utf8'));
		expect(reviewWrites(from).map((body) => body.status)).toEqual(pairs.map(() => 'assigned'));
	});

	it('a truncated export waits for approval, then exactly the reviewed withdrawals are made', async () => {
		const full = requiredPairs(fs.readFileSync(reviewPath(), 'utf8'));
		const lines = fs.readFileSync(reviewPath(), 'utf8').trimEnd().split('\n');
		fs.writeFileSync(reviewPath(), `${lines.slice(0, 4).join('\n')}\n`);
		const kept = new Set(
			requiredPairs(fs.readFileSync(reviewPath(), 'utf8')).map((p) => `${p.email} ${p.course}`),
		);
		const leaving = full.map((p) => `${p.email} ${p.course}`).filter((pair) => !kept.has(pair));
		const earlier = new Set((await executionsOf(env.n8n, ids.review)).map((row) => row.id));
		const from = lastSeq(env.lms);
		const reviewsBefore = env.chat.received.filter((r) => r.url === REVIEW_HOOK).length;

		await postJson(server().webhookUrl(REVIEW_PATH), {});
		const held = await finishedRun(earlier, 'waiting');
		const reviews = env.chat.received.filter((r) => r.url === REVIEW_HOOK);
		expect(reviews).toHaveLength(reviewsBefore + 1);
		const review = JSON.parse(reviews[reviews.length - 1].body) as {
			planId: string;
			resumeUrl: string;
			changes: Array<{ action: string; email: string; externalId: string }>;
		};
		const planned = review.changes
			.filter((change) => change.action === 'withdrawn')
			.map((change) => `${change.email} ${change.externalId}`);
		expect(planned.sort()).toEqual([...leaving].sort());
		expect(reviewWrites(from)).toEqual([]);

		// The reviewer approves: the resume URL, on this server.
		const resume = new URL(review.resumeUrl);
		const answer = await fetch(`${server().origin}${resume.pathname}${resume.search}`, {
			method: 'POST',
			signal: AbortSignal.timeout(120_000),
		});
		expect(answer.status).toBe(200);
		await waitFor('the approved review run did not end', 120_000, async () => {
			const row = (await executionsOf(env.n8n, ids.review)).find((r) => r.id === held.id);
			return row && !['new', 'running', 'waiting'].includes(row.status) ? row : undefined;
		});
		await assertNoFailedExecution(ids.review);
		expect(
			reviewWrites(from)
				.map((body) => `${body.email_id} ${body.external_id} ${body.status}`)
				.sort(),
		).toEqual(planned.map((pair) => `${pair} withdraw`).sort());
		const state = env.lms.state().assignments;
		for (const pair of leaving) {
			const [email, course] = pair.split(' ');
			expect(state[`${email}|${course}`]).toMatchObject({ status: 'withdraw' });
		}
	});
});

describe('Webhook: hr-event-to-assignment.json', () => {
	it('assigns the onboarding course when the HR system posts a hire, and answers 200 once the platform has made it', async () => {
		const from = lastSeq(env.lms);
		const reply = await postJson(server().webhookUrl(hrWebhook.parameters.path as string), hire);

		expect(reply).toEqual({
			status: 200,
			body: expect.objectContaining({
				result: 'assigned',
				email: hire.email,
				course: 'onboarding-101',
				dueDate: onboardingDueDate(hire.startDate),
				transactionId: expect.anything(),
			}),
		});
		// The hire's writes only: a scheduled roster run may write its own pairs meanwhile.
		expect(
			acceptedWrites(requestsSince(env.lms, from), USER_COURSES_PATH)
				.map((write) => write.body as Record<string, unknown>)
				.filter((body) => body.email_id === hire.email),
		).toEqual([
			{
				email_id: hire.email,
				external_id: 'onboarding-101',
				status: 'assigned',
				due_date: onboardingDueDate(hire.startDate),
			},
		]);
		expect(env.lms.state().assignments[`${hire.email}|onboarding-101`]).toMatchObject({
			status: 'assigned',
			due_date: onboardingDueDate(hire.startDate),
		});
		const executions = await settledExecutions(ids.hr);
		await assertNoFailedExecution(ids.hr, executions);
		expect(executions.map((row) => [row.mode, row.status])).toEqual([['webhook', 'success']]);
	});

	it('answers 422 with the platform’s reason for a hire the platform does not know', async () => {
		const email = 'new.person@unknown-domain.test';
		const reply = await postJson(server().webhookUrl(hrWebhook.parameters.path as string), {
			...hire,
			email,
		});

		expect(reply).toMatchObject({
			status: 422,
			body: {
				result: 'not assigned',
				email,
				course: 'onboarding-101',
				reason: expect.stringContaining(`User not found: ${email}`),
			},
		});
	});
});

describe('xAPI Trigger: completion-chain-trigger.json, across restarts of n8n', () => {
	/** Completions the sender posts to completion-chain.json while n8n runs. */
	const sent = completionsBody.completions;
	/** Completed statements recorded by another system while n8n is down, and one statement the filter leaves out. */
	const whileDown: Statement[] = [
		statementAbout(
			'https://learn.example.com/courses/elsewhere-1',
			COMPLETED_VERB,
			'ana.silva@example.com',
		),
		statementAbout(
			'https://learn.example.com/courses/elsewhere-2',
			COMPLETED_VERB,
			'ben.ito@example.com',
		),
	];
	const attempted = statementAbout(
		'https://learn.example.com/courses/elsewhere-1',
		ATTEMPTED_VERB,
		'ana.silva@example.com',
	);

	it('emits the completions recorded through the completion webhook, on its own schedule', async () => {
		// Its first poll, at activation, marks where history ends: what is stored after it counts as new.
		await waitFor('the xAPI Trigger did not poll the record store at activation', 60_000, () =>
			triggerPollsSinceStart().length > 0 ? true : undefined,
		);
		const reply = await postJson(
			server().webhookUrl(completionsWebhook.parameters.path as string),
			completionsBody,
		);
		expect(reply.status).toBe(200);
		await waitFor(
			'completion-chain.json did not record the completions in the record store',
			60_000,
			async () => {
				const found = await Promise.all(
					sent.map((completion) =>
						readStore(env.lrs.storeEndpoint, {
							statementId: statementIdFor(completion.completionId),
						}),
					),
				);
				return found.every((answer) => answer.status === 200) ? true : undefined;
			},
		);
		await assertNoFailedExecution(ids.completions);

		// The activation poll found nothing new; the next polls run every minute.
		const executions = await chatRunsOncePosted(
			"the xAPI Trigger's scheduled poll did not post every completion to the chat",
			150_000,
			sent.map((completion) => statementIdFor(completion.completionId)),
		);
		expect(executions.length).toBeGreaterThan(0);
		expect(executions.every((row) => row.mode === 'trigger' && row.status === 'success')).toBe(
			true,
		);

		const messages = chatMessages();
		expect(messages.map((message) => message.statementId).sort()).toEqual(
			sent.map((completion) => statementIdFor(completion.completionId)).sort(),
		);
		for (const completion of sent) {
			const message = messages.find(
				(entry) => entry.statementId === statementIdFor(completion.completionId),
			)!;
			expect(message).toMatchObject({ learner: completion.email, course: completion.courseUrl });
			expect(message.text).toContain(completion.name);
		}
		expect(
			env.chat.received
				.filter((request) => request.url !== REVIEW_HOOK)
				.every((request) => request.method === 'POST' && request.url === CHAT_HOOK_PATH),
		).toBe(true);
	});

	it('after a restart, emits once what was recorded while n8n was down, and nothing it had emitted before', async () => {
		const emittedBefore = (await executionsOf(env.n8n, ids.chat)).length;
		await server().stop();
		for (const row of await executionsOf(env.n8n, ids.catalog))
			catalogRunsBeforeRestart.add(row.id);
		expect(server().running()).toBe(false);
		await storeStatements(env.lrs.storeEndpoint, [...whileDown, attempted]);

		await startServer();

		// Each activation polls once; that poll finds them.
		const executions = await chatRunsOncePosted(
			'after the restart, the xAPI Trigger did not post the completions recorded while n8n was down',
			90_000,
			whileDown.map((statement) => statement.id),
		);
		expect(executions.length).toBeGreaterThan(emittedBefore);

		const counts = messageCounts();
		const expected = [
			...sent.map((completion) => statementIdFor(completion.completionId)),
			...whileDown.map((statement) => statement.id),
		];
		expect([...counts.keys()].sort()).toEqual([...expected].sort());
		expect([...counts.values()].every((count) => count === 1)).toBe(true);
		expect(counts.has(attempted.id)).toBe(false);

		// The trigger's cursor, as n8n saved it: it stands at the newest statement it emitted.
		const newest = await readStore(env.lrs.storeEndpoint, { statementId: whileDown[1].id });
		const cursor = await savedCursor(ids.chat, completionTrigger.name);
		expect(cursor).toMatchObject({ version: 2, storedMs: Date.parse(newest.body.stored) });
		expect(cursor.recent.map(([id]: [string, number]) => id)).toEqual(
			expect.arrayContaining(whileDown.map((statement) => statement.id.toLowerCase())),
		);
	});
});

describe('the server over the whole run', () => {
	it('fires the schedule again after the restart, and every run of every workflow ended as expected', async () => {
		const runAfterRestart = await waitFor(
			`after the restart, the schedule (every ${SCHEDULE_SECONDS} s) did not fire and finish a run`,
			90_000,
			async () =>
				(await assertNoFailedExecution(ids.catalog)).find(
					(row) => row.status === 'success' && !catalogRunsBeforeRestart.has(row.id),
				),
			1_000,
		);
		expect(runAfterRestart.mode).toBe('trigger');
		expect(catalogRunsBeforeRestart.size).toBeGreaterThan(0);
		// Runs may still be in progress: the schedule keeps firing.
		await assertNoFailedExecution(ids.catalog);
		for (const id of [ids.completions, ids.chat, ids.roster, ids.bounded, ids.review])
			await assertNoFailedExecution(id);
		const hrRuns = await executionsOf(env.n8n, ids.hr);
		// The unknown hire went to the error output and was answered; the execution itself succeeded.
		expect(hrRuns.map((row) => row.status)).toEqual(['success', 'success']);
	});

	it('never printed or saved the client secret, the LRS token or any access token', async () => {
		const tokens = bearerTokens(env.lms.requests());
		expect(tokens.length).toBeGreaterThanOrEqual(1);
		const secrets = [env.clientSecret, env.lrsToken, ...tokens];
		const printed = [env.n8n.allOutput(), ...servers.map((running) => running.output())].join('\n');
		expect(printed).toContain('Editor is now accessible via');
		expect(leakedSecrets(printed, secrets)).toEqual([]);
		const saved = (
			await queryDatabase<{ data: string }>(env.n8n, 'SELECT data FROM execution_data')
		).map((row) => row.data);
		expect(saved.length).toBeGreaterThan(0);
		expect(leakedSecrets(saved.join('\n'), secrets)).toEqual([]);
		expect(leakedSecrets(replies.join('\n'), secrets)).toEqual([]);
		expect(
			leakedSecrets(
				env.chat.received.map((request) => JSON.stringify(request)).join('\n'),
				secrets,
			),
		).toEqual([]);
	});
});

/**
 * The xAPI Trigger's cursor as n8n saved it: in the workflow's static data
 * (`node:<name>`), or, where this n8n keeps poll cursors in their own table
 * (`poller_state`), there.
 */
async function savedCursor(workflowId: string, nodeName: string): Promise<any> {
	const staticData = await savedStaticData(env.n8n, workflowId);
	const fromStaticData = staticData[`node:${nodeName}`]?.cursor;
	if (fromStaticData) return fromStaticData;
	const tables = await queryDatabase<{ name: string }>(
		env.n8n,
		"SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'poller_state'",
	);
	if (tables.length === 0)
		throw new Error(`no cursor in the static data of ${workflowId}: ${JSON.stringify(staticData)}`);
	const rows = await queryDatabase<{ cursor: string }>(
		env.n8n,
		'SELECT cursor FROM poller_state WHERE workflowId = ?',
		[workflowId],
	);
	const parsed = rows.map((row) =>
		typeof row.cursor === 'string' ? JSON.parse(row.cursor) : row.cursor,
	);
	const cursor = parsed.map((value) => value?.cursor ?? value?.staticData?.cursor).find(Boolean);
	if (!cursor)
		throw new Error(
			`no cursor for ${workflowId}: static data ${JSON.stringify(staticData)}, poller_state ${JSON.stringify(parsed)}`,
		);
	return cursor;
}
