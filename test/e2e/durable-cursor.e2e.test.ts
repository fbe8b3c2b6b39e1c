import { randomUUID } from 'node:crypto';

import { json, startLoopback, type Loopback } from '../../harness/loopback';
import { startLrs, type RunningLrs } from '../../harness/lrs';
import {
	statementAbout,
	statementGets,
	storeStatements,
	type Statement,
} from './lib/lrs-statements';
import { N8nSandbox } from '../../harness/n8n';
import {
	executionsOf,
	queryDatabase,
	startN8nServer,
	waitUntil,
	type N8nServer,
} from '../../harness/n8nServer';
import { builtPackageDir, N8N_MAJOR } from '../../harness/paths';
import type { WorkflowJson } from '../../harness/workflowJson';

/*
 * The xAPI Trigger in a running n8n 2.x (`n8n start`) whose poll triggers run on n8n's scheduler
 * with durable poll cursors: the cursor lives in n8n's `poller_state` table and is committed
 * together with the execution a poll starts. Each completion stored after the first poll must
 * start one execution, across a restart.
 *
 * n8n 1.x has no such mode (no scheduler, no `poller_state`): the suite is skipped there.
 */
const describeOn2 = N8N_MAJOR === 2 ? describe : describe.skip;

const DURABLE_POLLING = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

const TRIGGER = 'xAPI Trigger';

let lrs: RunningLrs;
let n8n: N8nSandbox;
let server: N8nServer | undefined;
let workflowId: string;
let throttledId: string;
let refusedId: string;

/** A record store standing in front of nothing: it answers as the test says, per path prefix. */
let failing: Loopback;
const answers: Record<'throttled' | 'refused', 'empty' | 'fail'> = {
	throttled: 'empty',
	refused: 'empty',
};
const RETRY_AFTER_SEC = 600;

const credential = (id: string, endpoint: string, token: string) => ({
	id,
	name: `LRS ${id}`,
	type: 'xApiLrsApi',
	data: { endpoint, authentication: 'token', token },
});
const credentials = () => [
	credential('e2eDurableLrs001', lrs.endpoint, lrs.token),
	credential('e2eDurableLrs429', `${failing.url}/throttled/xAPI`, 'Basic e2e-throttled-token'),
	credential('e2eDurableLrs401', `${failing.url}/refused/xAPI`, 'Basic e2e-refused-token'),
];

const workflow = (name: string, credentialId: string): WorkflowJson => ({
	name,
	nodes: [
		{
			id: randomUUID(),
			name: TRIGGER,
			type: 'CUSTOM.xApiTrigger',
			typeVersion: 1,
			position: [0, 0],
			credentials: { xApiLrsApi: { id: credentialId, name: `LRS ${credentialId}` } },
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, filters: {}, options: {} },
		},
		{
			id: randomUUID(),
			name: 'Done',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [220, 0],
			parameters: {},
		},
	],
	connections: { [TRIGGER]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
});

/** The statement ids the workflow's executions hold, each once per execution. */
async function emittedIds(): Promise<string[]> {
	const rows = await queryDatabase<{ data: string }>(
		n8n,
		`SELECT d.data FROM execution_data d JOIN execution_entity e ON e.id = d.executionId WHERE e.workflowId = ?`,
		[workflowId],
	);
	const uuid = /"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/g;
	return rows.flatMap(({ data }) => [
		...new Set([...data.matchAll(uuid)].map((match) => match[1])),
	]);
}

const completion = (n: string): Statement =>
	statementAbout(`https://learn.example.com/courses/durable-${n}`);
const beforeFirstScheduledPoll = completion('0');
const afterFirstScheduledPoll = [completion('1'), completion('2')];
const whileDown = completion('3');

let failedAt = 0;

/** n8n's back-off state of each workflow's poll. */
async function backoffs(): Promise<
	Map<string, { backoffUntil: string | null; updatedAt: string; consecutiveErrors: number }>
> {
	const rows = await queryDatabase<{
		workflowId: string;
		backoffUntil: string | null;
		updatedAt: string;
		consecutiveErrors: number;
	}>(n8n, 'SELECT workflowId, backoffUntil, updatedAt, consecutiveErrors FROM poller_state');
	return new Map(rows.map((row) => [row.workflowId, row]));
}

/** Waits until the trigger has sent `count` statement queries in all (one per poll here). */
async function waitForPolls(count: number, what: string): Promise<void> {
	await waitUntil(
		what,
		150_000,
		() => (statementGets(lrs.requests).length >= count ? true : undefined),
		1_000,
	);
}

/** Waits until every one of `statements` was emitted; returns every id emitted so far. */
async function waitForEmitted(statements: Statement[]): Promise<string[]> {
	return await waitUntil(
		'the completions were not emitted',
		150_000,
		async () => {
			const ids = await emittedIds();
			return statements.every((statement) => ids.includes(statement.id)) ? ids : undefined;
		},
		2_000,
	);
}

/** The statement ids the workflow's committed poll cursor remembers. */
async function committedIds(): Promise<string[]> {
	const [row] = await queryDatabase<{ cursor: string | null }>(
		n8n,
		'SELECT cursor FROM poller_state WHERE workflowId = ?',
		[workflowId],
	);
	const recent = row?.cursor ? JSON.parse(row.cursor)?.cursor?.recent : undefined;
	return Array.isArray(recent) ? recent.map(([id]: [string, number]) => id) : [];
}

/** Waits until n8n has committed a cursor that remembers every one of `statements`. */
async function waitForCommittedCursor(statements: Statement[], what: string): Promise<void> {
	await waitUntil(
		what,
		150_000,
		async () => {
			const ids = await committedIds();
			return statements.every((statement) => ids.includes(statement.id)) ? true : undefined;
		},
		1_000,
	);
}

async function start(): Promise<N8nServer> {
	server = await startN8nServer(n8n, { env: DURABLE_POLLING });
	return server;
}

describeOn2('xAPI Trigger on durable poll cursors (n8n scheduler)', () => {
	beforeAll(async () => {
		lrs = await startLrs();
		failing = await startLoopback((request, response) => {
			const which = request.url.startsWith('/throttled/') ? 'throttled' : 'refused';
			if (answers[which] === 'empty') return json(response, 200, { statements: [], more: '' });
			if (which === 'throttled') {
				return json(
					response,
					429,
					{ message: 'Slow down' },
					{ 'Retry-After': String(RETRY_AFTER_SEC) },
				);
			}
			return json(response, 401, { message: 'Unknown credential' });
		});
		n8n = await N8nSandbox.create({
			customExtensions: [builtPackageDir],
			env: DURABLE_POLLING,
		});
		await n8n.importCredentials(credentials());
		[workflowId, throttledId, refusedId] = await n8n.importWorkflows([
			workflow('Completions on durable poll cursors', 'e2eDurableLrs001'),
			workflow('A throttled record store', 'e2eDurableLrs429'),
			workflow('A record store refusing the credential', 'e2eDurableLrs401'),
		]);
		for (const id of [workflowId, throttledId, refusedId]) await n8n.activate(id);
	});

	afterAll(async () => {
		await server?.stop();
		n8n?.dispose();
		await lrs?.stop();
		await failing?.close();
	});

	it('emits each completion stored after the first scheduled poll once', async () => {
		// Stored before n8n starts, so it is history to every poll: the activation poll's cursor
		// is dropped by n8n (README: Troubleshooting), and the first scheduled poll starts afresh.
		await storeStatements(lrs.storeEndpoint, [beforeFirstScheduledPoll]);
		await start();
		// Counting the store's GETs would race: a GET is seen before its answer is read. The committed
		// cursor says that a poll has read the history and n8n has kept where it ends.
		await waitForCommittedCursor(
			[beforeFirstScheduledPoll],
			'no scheduled poll committed a cursor',
		);
		await storeStatements(lrs.storeEndpoint, afterFirstScheduledPoll);

		const emitted = await waitForEmitted(afterFirstScheduledPoll);
		for (const statement of afterFirstScheduledPoll) {
			expect(emitted.filter((id) => id === statement.id)).toHaveLength(1);
		}
		expect(emitted).not.toContain(beforeFirstScheduledPoll.id);
		expect((await executionsOf(n8n, workflowId)).every((row) => row.status === 'success')).toBe(
			true,
		);
		await waitForCommittedCursor(
			afterFirstScheduledPoll,
			'the cursor was not committed with the execution',
		);
	});

	it('backs the poll off by the Retry-After of a 429, and to the longest wait for a refused credential', async () => {
		const asked = failing.received.length;
		answers.throttled = 'fail';
		answers.refused = 'fail';
		const state = await waitUntil(
			'n8n recorded no back-off for the failing polls',
			150_000,
			async () => {
				const rows = await backoffs();
				return rows.get(throttledId)?.backoffUntil && rows.get(refusedId)?.backoffUntil
					? rows
					: undefined;
			},
			2_000,
		);
		expect(failing.received.length).toBeGreaterThan(asked);
		const waitOf = (id: string) => {
			const row = state.get(id)!;
			return Date.parse(`${row.backoffUntil}Z`) - Date.parse(`${row.updatedAt}Z`);
		};
		// rate-limited with retryAfterMs: n8n waits at least what the record store asked.
		expect(waitOf(throttledId)).toBeGreaterThanOrEqual(RETRY_AFTER_SEC * 1000 - 5_000);
		// credential-invalid: n8n's longest back-off (30 minutes), not its short first step.
		expect(waitOf(refusedId)).toBeGreaterThanOrEqual(29 * 60_000);
		failedAt = failing.received.length;
	});

	it('after a restart, emits what was stored while n8n was down once, and nothing again', async () => {
		const before = await emittedIds();
		await server!.stop();
		await storeStatements(lrs.storeEndpoint, [whileDown]);
		const polled = statementGets(lrs.requests).length;
		await start();
		await waitForPolls(polled + 1, 'no scheduled poll after the restart');

		const emitted = await waitForEmitted([whileDown]);
		expect(emitted.filter((id) => id === whileDown.id)).toHaveLength(1);
		for (const id of before) expect(emitted.filter((seen) => seen === id)).toHaveLength(1);
		// Backing off, across the restart: the failing record stores were not asked again.
		expect(failing.received.length).toBe(failedAt);
	});
});
