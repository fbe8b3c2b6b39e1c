/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { randomBytes, randomUUID } from 'node:crypto';

import { startAnswerDroppingProxy, type AnswerDroppingProxy } from './lib/answer-dropping-proxy';
import { outputItems } from '../../harness/executeOutput';
import { basicAuthorization, startLrs, type RunningLrs } from '../../harness/lrs';
import {
	ATTEMPTED_VERB,
	COMPLETED_VERB,
	COURSE_TYPE,
	postedStatements,
	readStore,
	statementAbout,
	statementGets,
	statementsAbout,
	storeStatements,
	VOIDED_VERB,
	type Statement,
} from './lib/lrs-statements';
import { N8nSandbox, type ExecutionResult } from '../../harness/n8n';
import { builtPackageDir } from '../../harness/paths';
import { createTriggerPoller } from './lib/poll-trigger';
import { delay } from '../../harness/processes';
import type { RecordedRequest } from '../../harness/recordingProxy';
import { leakedSecrets } from './lib/secrets';
import { codeNode, manualWorkflow, packageNode } from '../../harness/workflowBuilder';
import type { CredentialJson } from '../../harness/workflowJson';

/*
 * The xApi node inside a real n8n (CLI executions) against a real record store
 * (xapi-statements) behind recording proxies that insist on the exact
 * Authorization each credential must send; the xApiTrigger's poll driven by
 * n8n-core's poll code in this process (see lib/poll-trigger.ts).
 */

const suffix = randomBytes(6).toString('hex');
const token = `e2e-lrs-token-${suffix}`;
const wrongToken = `e2e-wrong-lrs-token-${suffix}`;
const basic = { username: `e2e-key-${suffix}`, password: `e2e-lrs-password-${suffix}` };

/** Accepts only `token`. */
let lrs: RunningLrs;
/** Another store that accepts only the Basic credentials. */
let basicLrs: RunningLrs;
/** In front of `lrs`: loses the answer to the first statement POST. */
let flaky: AnswerDroppingProxy;
let n8n: N8nSandbox;
const executions: ExecutionResult[] = [];

const activity = (name: string) => `https://learn.example.com/courses/e2e-${name}-${suffix}`;

const credentialIds = {
	token: 'e2eLrsToken00001',
	basic: 'e2eLrsBasic00001',
	flaky: 'e2eLrsFlaky00001',
	wrongToken: 'e2eLrsWrong00001',
};

function lrsCredential(id: string, name: string): CredentialJson {
	return { id, name, type: 'xApiLrsApi', data: {} };
}
const credentials = {
	token: lrsCredential(credentialIds.token, 'LRS with token'),
	basic: lrsCredential(credentialIds.basic, 'LRS with Basic auth'),
	flaky: lrsCredential(credentialIds.flaky, 'LRS losing an answer'),
	wrongToken: lrsCredential(credentialIds.wrongToken, 'LRS with a wrong token'),
};

const xapi = (name: string, parameters: Record<string, unknown>, credential = credentials.token) =>
	packageNode(name, 'xApi', parameters, credential);

const singleId = randomUUID();
const flakyId = randomUUID();
const voidTarget = statementAbout(activity('void'));
const manyActivity = activity('many');
const MANY = 130;
const BATCH_ITEMS = 7;
const BATCH_SIZE = 5;

const completedForm = {
	resource: 'statement',
	operation: 'send',
	inputMode: 'fields',
	actorName: 'Ada Lovelace',
	actorEmail: 'ada@example.com',
	verb: COMPLETED_VERB,
	activityType: COURSE_TYPE,
	activityName: 'xAPI end to end',
};

const workflows = {
	sendAndGet: manualWorkflow('xAPI: send one statement, read it back', [
		xapi('Send', {
			...completedForm,
			activityId: activity('single'),
			additionalFields: {
				scoreScaled: 0.9,
				success: true,
				completion: true,
				duration: 'PT30M',
				statementId: singleId,
			},
		}),
		xapi('Get', {
			resource: 'statement',
			operation: 'get',
			statementId: '={{ $json.statementId }}',
		}),
	]),
	batch: manualWorkflow('xAPI: send a batch with Basic auth', [
		codeNode(
			'Learners',
			`return Array.from({ length: ${BATCH_ITEMS} }, (_, i) => ({ json: { name: 'Learner ' + i, email: 'learner' + i + '@example.com' } }));`,
		),
		xapi(
			'Send batch',
			{
				...completedForm,
				actorName: '={{ $json.name }}',
				actorEmail: '={{ $json.email }}',
				activityId: activity('batch'),
				options: { batchSize: BATCH_SIZE },
			},
			credentials.basic,
		),
	]),
	flakySend: manualWorkflow('xAPI: send when the first answer is lost', [
		xapi(
			'Send',
			{
				...completedForm,
				activityId: activity('flaky'),
				additionalFields: { statementId: flakyId },
			},
			credentials.flaky,
		),
	]),
	getMany: manualWorkflow('xAPI: list statements', [
		[
			xapi('All', {
				resource: 'statement',
				operation: 'getMany',
				returnAll: true,
				filters: { activity: manyActivity },
			}),
			xapi('First seven', {
				resource: 'statement',
				operation: 'getMany',
				returnAll: false,
				limit: 7,
				filters: { activity: manyActivity },
			}),
		],
	]),
	voidAndGet: manualWorkflow('xAPI: void a statement, then find it among the voided', [
		xapi('Void', {
			resource: 'statement',
			operation: 'void',
			statementId: voidTarget.id,
			actorName: 'LRS Admin',
			actorEmail: 'admin@example.com',
		}),
		xapi('Get voided', {
			resource: 'statement',
			operation: 'get',
			statementId: '={{ $json.voidedStatementId }}',
			options: { voided: true },
		}),
	]),
	wrongToken: manualWorkflow('xAPI: send with a token the store refuses', [
		xapi('Send', { ...completedForm, activityId: activity('refused') }, credentials.wrongToken),
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

/** What the proxy saw from `from` on. */
const since = (store: RunningLrs, from: number): RecordedRequest[] => store.requests.slice(from);

beforeAll(async () => {
	[lrs, basicLrs] = await Promise.all([
		startLrs({ requiredAuthorization: token }),
		startLrs({ requiredAuthorization: basicAuthorization(basic) }),
	]);
	let statementPosts = 0;
	flaky = await startAnswerDroppingProxy({
		target: new URL(lrs.endpoint).origin,
		shouldDrop: (request) => request.method === 'POST' && statementPosts++ === 0,
	});
	n8n = await N8nSandbox.create({ customExtensions: [builtPackageDir] });
	await n8n.importCredentials([
		{ ...credentials.token, data: { endpoint: lrs.endpoint, authentication: 'token', token } },
		{
			...credentials.basic,
			data: { endpoint: basicLrs.endpoint, authentication: 'basic', ...basic },
		},
		{
			...credentials.flaky,
			data: { endpoint: `${flaky.origin}/xAPI`, authentication: 'token', token },
		},
		{
			...credentials.wrongToken,
			data: { endpoint: lrs.endpoint, authentication: 'token', token: wrongToken },
		},
	]);
	const keys = Object.keys(workflows) as WorkflowKey[];
	const ids = await n8n.importWorkflows(keys.map((key) => workflows[key]));
	keys.forEach((key, index) => (workflowIds[key] = ids[index]));
});

afterAll(async () => {
	n8n?.dispose();
	await flaky?.close();
	await Promise.all([lrs?.stop(), basicLrs?.stop()]);
});

describe('statement send and get', () => {
	it('sends one statement with the token and reads it back by id', async () => {
		const from = lrs.requests.length;
		const execution = await run('sendAndGet');

		expectSuccess(execution);
		const sent = since(lrs, from);
		const [post] = sent.filter((request) => request.method === 'POST');
		expect(post.headers.authorization).toBe(token);
		expect(post.headers['x-experience-api-version']).toBe('1.0.3');
		expect(postedStatements(sent)).toEqual([
			[
				expect.objectContaining({
					id: singleId,
					actor: expect.objectContaining({ name: 'Ada Lovelace', mbox: 'mailto:ada@example.com' }),
					verb: expect.objectContaining({ id: COMPLETED_VERB }),
					object: expect.objectContaining({
						id: activity('single'),
						definition: expect.objectContaining({
							type: COURSE_TYPE,
							name: { 'en-US': 'xAPI end to end' },
						}),
					}),
					result: { score: { scaled: 0.9 }, success: true, completion: true, duration: 'PT30M' },
				}),
			],
		]);
		expect(outputItems(execution.runData, 'Send')).toEqual([
			expect.objectContaining({ statementId: singleId }),
		]);
		const [read] = outputItems(execution.runData, 'Get');
		expect(read).toMatchObject({
			id: singleId,
			verb: { id: COMPLETED_VERB },
			object: { id: activity('single') },
		});
		expect((await readStore(lrs.storeEndpoint, { statementId: singleId })).body).toMatchObject({
			id: singleId,
		});
	});

	it('does not store the same statement twice when it is sent again', async () => {
		expectSuccess(await run('sendAndGet'));

		const stored = await statementsAbout(lrs.storeEndpoint, activity('single'));
		expect(stored.map((statement) => statement.id)).toEqual([singleId]);
	});

	it('sends a batch as arrays of up to batchSize statements, with Basic auth', async () => {
		const from = basicLrs.requests.length;
		const execution = await run('batch');

		expectSuccess(execution);
		const sent = since(basicLrs, from);
		expect(
			sent.every((request) => request.headers.authorization === basicAuthorization(basic)),
		).toBe(true);
		const batches = postedStatements(sent);
		expect(batches.map((batch) => batch.length)).toEqual([BATCH_SIZE, BATCH_ITEMS - BATCH_SIZE]);
		expect(
			sent
				.filter((request) => request.method === 'POST')
				.map((request) => request.body.trimStart()[0]),
		).toEqual(['[', '[']);

		const outputs = outputItems(execution.runData, 'Send batch');
		expect(outputs).toHaveLength(BATCH_ITEMS);
		const ids = outputs.map((item) => String(item.statementId));
		expect(batches.flat().map((statement) => statement.id)).toEqual(ids);
		expect(batches.flat().map((statement) => (statement.actor as { mbox: string }).mbox)).toEqual(
			Array.from({ length: BATCH_ITEMS }, (_, i) => `mailto:learner${i}@example.com`),
		);
		const stored = await statementsAbout(basicLrs.storeEndpoint, activity('batch'));
		expect(stored.map((statement) => statement.id).sort()).toEqual([...ids].sort());
	});

	it('repeats a POST whose answer was lost, and the store keeps one statement', async () => {
		const from = lrs.requests.length;
		const execution = await run('flakySend');

		expectSuccess(execution);
		expect(flaky.dropped()).toBe(1);
		const posts = since(lrs, from).filter((request) => request.method === 'POST');
		// Both attempts reached the store, with the same statement (same id).
		expect(posts.map((request) => request.status)).toEqual([200, 200]);
		expect(postedStatements(posts).map((batch) => batch.map((statement) => statement.id))).toEqual([
			[flakyId],
			[flakyId],
		]);
		expect(outputItems(execution.runData, 'Send')).toEqual([
			expect.objectContaining({ statementId: flakyId }),
		]);
		const stored = await statementsAbout(lrs.storeEndpoint, activity('flaky'));
		expect(stored.map((statement) => statement.id)).toEqual([flakyId]);
	});

	it('fails with the store’s refusal when the token is wrong', async () => {
		const from = lrs.requests.length;
		const execution = await run('wrongToken');

		expect(execution.ok).toBe(false);
		expect(execution.errorMessage).toMatch(/401|unauthori[sz]ed|authori[sz]ation/i);
		expect(
			since(lrs, from).map((request) => [request.headers.authorization, request.status]),
		).toContainEqual([wrongToken, 401]);
		expect(await statementsAbout(lrs.storeEndpoint, activity('refused'))).toEqual([]);
	});
});

describe('statement getMany', () => {
	it('follows `more` across pages with Return All, and stops at the limit otherwise', async () => {
		const seeded = Array.from({ length: MANY }, () => statementAbout(manyActivity, ATTEMPTED_VERB));
		await storeStatements(lrs.storeEndpoint, seeded);
		const from = lrs.requests.length;
		const execution = await run('getMany');

		expectSuccess(execution);
		const all = outputItems(execution.runData, 'All').map((statement) => String(statement.id));
		expect(all).toHaveLength(MANY);
		expect([...all].sort()).toEqual(seeded.map((statement) => statement.id).sort());
		expect(outputItems(execution.runData, 'First seven')).toHaveLength(7);

		const gets = statementGets(since(lrs, from));
		// Two pages for Return All (the second one the store's `more` link), one for the limit.
		expect(gets).toHaveLength(3);
		expect(gets.filter((request) => request.url.includes('cursor='))).toHaveLength(1);
		expect(
			gets.every((request) => request.status === 200 && request.headers.authorization === token),
		).toBe(true);
	});
});

describe('statement void', () => {
	it('voids a statement, which Get then finds only as voided', async () => {
		await storeStatements(lrs.storeEndpoint, [voidTarget]);
		const from = lrs.requests.length;
		const execution = await run('voidAndGet');

		expectSuccess(execution);
		expect(postedStatements(since(lrs, from))).toEqual([
			[
				expect.objectContaining({
					verb: expect.objectContaining({ id: VOIDED_VERB }),
					object: { objectType: 'StatementRef', id: voidTarget.id },
					actor: expect.objectContaining({ mbox: 'mailto:admin@example.com' }),
				}),
			],
		]);
		expect(outputItems(execution.runData, 'Get voided')).toEqual([
			expect.objectContaining({ id: voidTarget.id }),
		]);
		expect((await readStore(lrs.storeEndpoint, { statementId: voidTarget.id })).status).toBe(404);
		expect((await readStore(lrs.storeEndpoint, { voidedStatementId: voidTarget.id })).status).toBe(
			200,
		);
	});
});

describe('the xAPI trigger', () => {
	const triggerActivity = activity('trigger');
	const idsOf = (emissions: Array<Array<{ json: Record<string, unknown> }>>) =>
		emissions.flat().map((item) => String(item.json.id));

	it('emits each new matching statement once, oldest first, across polls and pages', async () => {
		const poller = createTriggerPoller({
			node: {
				name: 'New completions',
				type: 'CUSTOM.xApiTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { filters: { verb: COMPLETED_VERB, activity: triggerActivity } },
				credentials: { xApiLrsApi: { id: credentialIds.token, name: credentials.token.name } },
			},
			credentials: { xApiLrsApi: { endpoint: lrs.endpoint, authentication: 'token', token } },
		});
		const storeOneByOne = async (statements: Statement[]) => {
			for (const statement of statements) {
				await storeStatements(lrs.storeEndpoint, [statement]);
				await delay(5);
			}
		};

		// Statements stored before activation are history: never emitted.
		await storeOneByOne([statementAbout(triggerActivity), statementAbout(triggerActivity)]);
		const activation = await poller.tick();
		expect(activation).toEqual({ emissions: [] });

		const fresh = [
			statementAbout(triggerActivity),
			statementAbout(triggerActivity),
			statementAbout(triggerActivity),
		];
		await storeOneByOne([
			fresh[0],
			statementAbout(triggerActivity, ATTEMPTED_VERB),
			fresh[1],
			fresh[2],
		]);
		const second = await poller.tick();
		expect(second.error).toBeUndefined();
		expect(second.emissions).toHaveLength(1);
		expect(idsOf(second.emissions)).toEqual(fresh.map((statement) => statement.id));

		expect(idsOf((await poller.tick()).emissions)).toEqual([]);

		// More than one page (the trigger reads 100 at a time) arrives between two polls.
		const burst = Array.from({ length: 150 }, () => statementAbout(triggerActivity));
		await storeStatements(lrs.storeEndpoint, burst);
		const fourth = await poller.tick();
		expect(fourth.error).toBeUndefined();
		const emitted = idsOf(fourth.emissions);
		expect(emitted).toHaveLength(burst.length);
		expect(new Set(emitted)).toEqual(new Set(burst.map((statement) => statement.id)));

		expect(idsOf((await poller.tick()).emissions)).toEqual([]);
	});
});

describe('secrets', () => {
	it('never appear in what n8n printed or in any node output', () => {
		const printed = n8n.allOutput();
		const outputs = executions.map((execution) => JSON.stringify(execution.raw)).join('\n');
		expect(executions.some((execution) => !execution.ok)).toBe(true);
		expect(executions.every((execution) => execution.raw !== null)).toBe(true);

		const basicHeaderValue = basicAuthorization(basic).slice('Basic '.length);
		const secrets = [token, wrongToken, basic.password, basicHeaderValue];
		expect(leakedSecrets(printed, secrets)).toEqual([]);
		expect(leakedSecrets(outputs, secrets)).toEqual([]);
	});
});
