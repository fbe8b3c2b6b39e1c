import { randomBytes } from 'node:crypto';

import {
	LRS_STATEMENTS_PATH,
	LRS_TOKEN_PATH,
	startSandbox,
	type LoggedRequest,
	type Sandbox,
} from '../../sandbox/server';
import { outputItems } from '../../harness/executeOutput';
import { N8nSandbox, type ExecutionResult } from '../../harness/n8n';
import { builtPackageDir } from '../../harness/paths';
import { leakedSecrets } from './lib/secrets';
import { codeNode, manualWorkflow, packageNode } from '../../harness/workflowBuilder';
import type { CredentialJson } from '../../harness/workflowJson';

/*
 * The xApi node inside a real n8n (CLI executions) sending statements through
 * the sandbox's xAPI push endpoint (platform-docs 002) with OAuth2 client
 * credentials: the form-encoded token request, one statement per request,
 * the 10-per-10-s budget, repeat-safe ids from an idempotency key, a refused
 * secret, and no secret or token in anything n8n printed or stored as output.
 */

const suffix = randomBytes(6).toString('hex');
const clientId = `e2e-push-client-${suffix}`;
const clientSecret = `e2e-push-secret-${suffix}`;
const wrongClientSecret = `e2e-wrong-push-secret-${suffix}`;
const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed';
const COURSE = 'http://adlnet.gov/expapi/activities/course';
const EVENTS = 12;

let lms: Sandbox;
let n8n: N8nSandbox;
const executions: ExecutionResult[] = [];

function pushCredential(
	id: string,
	name: string,
	data: Record<string, unknown> = {},
): CredentialJson {
	return {
		id,
		name,
		type: 'xApiLrsApi',
		data: { authentication: 'oauth2', clientId, clientSecret, ...data },
	};
}

const credentials = {
	push: pushCredential('e2ePushOauth0001', 'Push endpoint'),
	wrongSecret: pushCredential('e2ePushWrong0001', 'Push endpoint, wrong secret', {
		clientSecret: wrongClientSecret,
	}),
};

/** Completions as an HR system would deliver them: each with the id the sender gave it. */
const completions = Array.from({ length: EVENTS }, (_, i) => ({
	completionId: `hr-completion-${suffix}-${i}`,
	email: `learner${i}@example.com`,
	course: `https://learn.example.com/courses/e2e-push-${i}`,
}));

const sendForm = (credential: CredentialJson) =>
	packageNode(
		'Send completions',
		'xApi',
		{
			resource: 'statement',
			operation: 'send',
			inputMode: 'fields',
			actorName: '={{ $json.email.split("@")[0] }}',
			actorEmail: '={{ $json.email }}',
			verb: COMPLETED,
			activityId: '={{ $json.course }}',
			activityType: COURSE,
			activityName: '={{ "Course " + $json.course.split("/").pop() }}',
			additionalFields: { idempotencyKey: '={{ $json.completionId }}', completion: true },
		},
		credential,
	);

const itemsCode = (list: unknown[]) => `return ${JSON.stringify(list)}.map((json) => ({ json }));`;

const workflows = {
	completions: manualWorkflow('xAPI push: completions with idempotency keys', [
		codeNode('Completions', itemsCode(completions)),
		sendForm(credentials.push),
	]),
	wrongSecret: manualWorkflow('xAPI push: a refused client secret', [
		codeNode('Completions', itemsCode(completions.slice(0, 2))),
		sendForm(credentials.wrongSecret),
	]),
};

type WorkflowKey = keyof typeof workflows;
const workflowIds = {} as Record<WorkflowKey, string>;

async function run(key: WorkflowKey): Promise<ExecutionResult> {
	const execution = await n8n.execute(workflowIds[key]);
	executions.push(execution);
	return execution;
}

const since = (seq: number) => lms.requests().filter((entry) => entry.seq > seq);
const lastSeq = () => lms.requests().at(-1)?.seq ?? 0;
const posts = (entries: LoggedRequest[]) =>
	entries.filter((entry) => entry.path === LRS_STATEMENTS_PATH);

function busiestWindow(entries: LoggedRequest[]): number {
	const times = entries.map((entry) => Date.parse(entry.time)).sort((a, b) => a - b);
	let most = 0;
	for (let i = 0, j = 0; j < times.length; j++) {
		while (times[j] - times[i] >= 10_000) i++;
		most = Math.max(most, j - i + 1);
	}
	return most;
}

beforeAll(async () => {
	lms = await startSandbox({
		lrsClientId: clientId,
		lrsClientSecret: clientSecret,
		lrsRatePer10Sec: 10,
	});
	n8n = await N8nSandbox.create({ customExtensions: [builtPackageDir] });
	await n8n.importCredentials(
		Object.values(credentials).map((credential) => ({
			...credential,
			data: { endpoint: lms.lrsEndpoint, ...credential.data },
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

describe('the platform push endpoint with OAuth2', () => {
	it('records every completion once, one statement per request, within 10 per 10 s', async () => {
		const from = lastSeq();
		const execution = await run('completions');

		expect(execution.errorMessage).toBeUndefined();
		expect(execution.ok).toBe(true);
		const log = since(from);
		const tokens = log.filter((entry) => entry.path === LRS_TOKEN_PATH);
		expect(tokens).toHaveLength(1);
		expect(tokens[0].query).toEqual({});
		expect(new URLSearchParams(String(tokens[0].body)).get('scope')).toBe('xapi:write');
		const sent = posts(log);
		expect(sent.every((entry) => !Array.isArray(entry.body))).toBe(true);
		expect(sent.filter((entry) => entry.status === 429).length).toBeLessThanOrEqual(3);
		expect(busiestWindow(sent.filter((entry) => entry.status !== 429))).toBeLessThanOrEqual(10);

		const stored = lms.state().lrs.statements;
		expect(stored).toHaveLength(EVENTS);
		const output = outputItems(execution.runData, 'Send completions');
		expect(output.map((item) => item.idempotencyKey)).toEqual(
			completions.map((c) => c.completionId),
		);
		expect(new Set(output.map((item) => item.statementId))).toEqual(
			new Set(stored.map((entry) => entry.id)),
		);
		expect(
			stored.every(
				(entry) => (entry.statement.actor as { objectType?: string }).objectType === 'Agent',
			),
		).toBe(true);
	}, 120_000);

	it('a re-run of the same events stores nothing new: the ids are the same in every process', async () => {
		const before = lms.state().lrs.statements;
		const from = lastSeq();
		const execution = await run('completions');

		expect(execution.ok).toBe(true);
		const after = lms.state().lrs.statements;
		expect(after).toEqual(before);
		// Each event was accepted again as the same statement: no conflict, no second copy.
		expect(
			posts(since(from))
				.filter((entry) => entry.status !== 429)
				.map((entry) => entry.status),
		).toEqual(Array(EVENTS).fill(200));
		const output = outputItems(execution.runData, 'Send completions');
		expect(output.map((item) => item.statementId).sort()).toEqual(
			before.map((entry) => entry.id).sort(),
		);
	}, 120_000);

	it('a refused secret fails the run saying so, and nothing is sent', async () => {
		const before = lms.state().lrs.statements.length;
		const from = lastSeq();
		const execution = await run('wrongSecret');

		expect(execution.ok).toBe(false);
		expect(execution.errorMessage).toMatch(/refused the client credentials/);
		expect(posts(since(from))).toHaveLength(0);
		expect(lms.state().lrs.statements).toHaveLength(before);
	}, 60_000);

	it('neither the secrets nor the tokens appear in what n8n printed or in any output', () => {
		const printed = n8n.allOutput();
		const outputs = executions.map((execution) => JSON.stringify(execution.raw)).join('\n');
		const tokens = [
			...new Set(
				lms
					.requests()
					.map((entry) => /^Bearer (\S+)$/.exec(entry.headers.authorization ?? '')?.[1])
					.filter((token): token is string => token !== undefined),
			),
		];
		expect(tokens.length).toBeGreaterThanOrEqual(1);
		expect(executions.some((execution) => !execution.ok)).toBe(true);

		const secrets = [clientSecret, wrongClientSecret, encodeURIComponent(clientSecret), ...tokens];
		secrets.push(...secrets.map((secret) => Buffer.from(secret).toString('base64')));
		expect(leakedSecrets(printed, secrets)).toEqual([]);
		expect(leakedSecrets(outputs, secrets)).toEqual([]);
	});
});
