/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { outputItems } from '../../harness/executeOutput';
import { basicAuthorization, startLrs, XAPI_VERSION_HEADER, type RunningLrs } from '../../harness/lrs';
import { N8nSandbox } from '../../harness/n8n';
import { assertPackageLoaded } from './lib/package-loaded';
import { builtPackageDir, n8nInstallDir } from '../../harness/paths';
import { PROBE_NODE_NAME, writeProbeExtension } from './lib/probe-extension';
import { toCustomNodeTypes, type WorkflowJson } from '../../harness/workflowJson';

const manualTrigger = {
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

function chain(names: string[]): WorkflowJson['connections'] {
	return Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, index) => [
				name,
				{ main: [[{ node: names[index + 1], type: 'main', index: 0 }]] },
			]),
	);
}

const coreNodesWorkflow: WorkflowJson = {
	name: 'Smoke: core nodes and an extension node',
	nodes: [
		manualTrigger,
		{
			name: 'Edit Fields',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: {
				assignments: {
					assignments: [
						{
							id: 'greeting',
							name: 'greeting',
							value: "={{ ['e2e', 'smoke'].join('-') }}",
							type: 'string',
						},
					],
				},
				options: {},
			},
		},
		{
			name: 'Probe',
			type: `CUSTOM.${PROBE_NODE_NAME}`,
			typeVersion: 1,
			position: [400, 0],
			parameters: {},
		},
		{
			name: 'Code',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [600, 0],
			parameters: {
				jsCode:
					'return $input.all().map((item) => ({ json: { ...item.json, doubled: item.json.greeting.repeat(2) } }));',
			},
		},
	],
	connections: chain(['Start', 'Edit Fields', 'Probe', 'Code']),
};

// Written with the registry name, as the package's examples are.
const packageNodeWorkflow: WorkflowJson = {
	name: 'Smoke: a node of this package',
	nodes: [
		manualTrigger,
		{
			name: 'Learning Platform',
			type: 'n8n-nodes-learning-platform.learningPlatform',
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
	],
	connections: chain(['Start', 'Learning Platform']),
};

describe('n8n with a custom extension that is not this package', () => {
	let probeDir: string;
	let n8n: N8nSandbox;
	let coreNodesWorkflowId: string;
	let packageNodeWorkflowId: string;

	beforeAll(async () => {
		probeDir = writeProbeExtension(fs.mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-probe-')));
		n8n = await N8nSandbox.create({ customExtensions: [probeDir] });
		[coreNodesWorkflowId, packageNodeWorkflowId] = await n8n.importWorkflows([
			coreNodesWorkflow,
			toCustomNodeTypes(packageNodeWorkflow),
		]);
	});

	afterAll(() => {
		n8n?.dispose();
		if (probeDir) fs.rmSync(probeDir, { recursive: true, force: true });
	});

	it('runs core nodes, an expression, a Code node and the extension node', async () => {
		const execution = await n8n.execute(coreNodesWorkflowId);

		expect(execution.errorMessage).toBeUndefined();
		expect(execution.ok).toBe(true);
		const [item] = outputItems(execution.runData, 'Code');
		expect(item).toMatchObject({
			greeting: 'e2e-smoke',
			probed: true,
			doubled: 'e2e-smokee2e-smoke',
		});
		// The extension got the host n8n's n8n-workflow, not the repository's.
		expect(item.workflowModule).toEqual(
			expect.stringContaining(path.join(n8nInstallDir, 'node_modules', 'n8n-workflow')),
		);
	});

	it('names the extension node type CUSTOM.<name>', async () => {
		const names = (await n8n.exportNodeTypes()).map((nodeType) => nodeType.name);

		expect(names).toContain(`CUSTOM.${PROBE_NODE_NAME}`);
		expect(names).toContain('n8n-nodes-base.manualTrigger');
	});

	it('fails a workflow whose node type it did not load', async () => {
		const execution = await n8n.execute(packageNodeWorkflowId);

		expect(execution.ok).toBe(false);
		expect(execution.errorMessage).toContain('Unrecognized node type: CUSTOM.learningPlatform');
	});

	it('makes assertPackageLoaded fail when this package is not loaded', async () => {
		await expect(assertPackageLoaded(n8n)).rejects.toThrow(
			/did not load CUSTOM\.learningPlatform, CUSTOM\.xApi/,
		);
	});
});

describe('n8n with the built package', () => {
	let n8n: N8nSandbox | undefined;

	afterAll(() => n8n?.dispose());

	it('loads the learningPlatform and xApi node types', async () => {
		n8n = await N8nSandbox.create({ customExtensions: [builtPackageDir] });
		await assertPackageLoaded(n8n);
	});
});

describe('the Learning Record Store', () => {
	let lrs: RunningLrs | undefined;

	afterEach(async () => {
		await lrs?.stop();
		lrs = undefined;
	});

	const statement = () => ({
		id: randomUUID(),
		actor: { objectType: 'Agent', mbox: 'mailto:learner@example.com' },
		verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
		object: { objectType: 'Activity', id: 'https://lms.example.com/courses/smoke' },
	});

	it('stores a posted statement and returns it by id', async () => {
		lrs = await startLrs();
		const posted = statement();
		const authorization = basicAuthorization(lrs.basicAuth);

		const post = await fetch(`${lrs.endpoint}/statements`, {
			method: 'POST',
			headers: {
				...XAPI_VERSION_HEADER,
				'Content-Type': 'application/json',
				Authorization: authorization,
			},
			body: JSON.stringify(posted),
		});
		expect(post.status).toBe(200);
		expect(await post.json()).toEqual([posted.id]);

		const get = await fetch(`${lrs.endpoint}/statements?statementId=${posted.id}`, {
			headers: { ...XAPI_VERSION_HEADER, Authorization: authorization },
		});
		expect(get.status).toBe(200);
		expect(await get.json()).toMatchObject({
			id: posted.id,
			verb: { id: posted.verb.id },
			object: { id: posted.object.id },
		});
		expect(lrs.requests.map((request) => [request.method, request.headers.authorization])).toEqual([
			['POST', authorization],
			['GET', authorization],
		]);
	});

	it('rejects other credentials when told which Authorization to require', async () => {
		const required = 'Basic cmVxdWlyZWQ6Y3JlZGVudGlhbHM=';
		lrs = await startLrs({ requiredAuthorization: required });
		const post = (authorization: string) =>
			fetch(`${lrs!.endpoint}/statements`, {
				method: 'POST',
				headers: {
					...XAPI_VERSION_HEADER,
					'Content-Type': 'application/json',
					Authorization: authorization,
				},
				body: JSON.stringify(statement()),
			});

		expect((await post(basicAuthorization({ username: 'someone', password: 'else' }))).status).toBe(
			401,
		);
		expect((await post(required)).status).toBe(200);
	});

	it('is gone once stopped', async () => {
		const stopped = await startLrs();
		await stopped.stop();

		await expect(fetch(`${stopped.storeEndpoint}/about`)).rejects.toThrow();
		await expect(fetch(`${stopped.endpoint}/about`)).rejects.toThrow();
	});
});
