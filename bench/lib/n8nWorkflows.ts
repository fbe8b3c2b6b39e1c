/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * The benchmarks in a real n8n: how one runs (inN8n), and what they import: an LMS credential,
 * the package's Create or Update Course and n8n's HTTP Request node posting the same body, and
 * the bulk workflow of the queue and hires benchmarks.
 */
import { N8nSandbox } from '../../harness/n8n';
import { builtPackageDir } from '../../harness/paths';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import type { BenchmarkOutcome } from '../benchmarks/types';
import { commandLine } from '../report/results';
import { recordRun } from '../report/write';
import { machineInfo } from './machine';
import { runScript } from './script';
import {
	courseItems,
	courseUpsertNode,
	httpCourseUpsertNode,
	LMS_CREDENTIAL,
	lmsCredentialData,
} from '../../harness/nodes';
import {
	codeNode,
	credentialRef,
	packageNode,
	webhookWorkflow,
	type NodeSpec,
} from '../../harness/workflowBuilder';
import {
	newN8nId,
	withId,
	type CredentialJson,
	type WorkflowJson,
} from '../../harness/workflowJson';

/**
 * Runs bench/<script, or name>.ts as a script: prints `what` with the load average, starts the
 * sandbox (in this process) and an n8n with the built package as a custom extension (and `env`),
 * and records the outcome of `measure` as the latest run of `name`; both stop in any case.
 */
export function inN8n(
	benchmark: { name: string; script?: string; what: string; env?: Record<string, string> },
	sandboxOptions: Partial<SandboxOptions>,
	measure: (sandbox: Sandbox, n8n: N8nSandbox) => Promise<BenchmarkOutcome>,
): void {
	runScript(async () => {
		const machine = machineInfo();
		const started = Date.now();
		console.log(`${benchmark.what} (load average ${machine.loadAverage})`);
		const sandbox = await startSandbox(sandboxOptions);
		const n8n = await N8nSandbox.create({
			customExtensions: [builtPackageDir],
			env: benchmark.env,
		});
		try {
			const outcome = await measure(sandbox, n8n);
			const command = `npx n8n-node build && ${commandLine(`bench/${benchmark.script ?? benchmark.name}.ts`)}`;
			recordRun(benchmark.name, outcome, { started, machine, command });
		} finally {
			n8n.dispose();
			await sandbox.close();
		}
	});
}

export function lmsCredential(
	name: string,
	sandbox: { url: string; clientId: string; clientSecret: string },
	requestsPerMinute: number,
): CredentialJson {
	const data = lmsCredentialData(sandbox, requestsPerMinute);
	return { id: newN8nId(), name, type: LMS_CREDENTIAL, data };
}

/** A Code node putting out `count` courses (harness/nodes.ts courseItems). */
export const coursesNode = (count: number, tag: string): NodeSpec =>
	codeNode(
		'Courses',
		`return ${JSON.stringify(courseItems(count, tag))}.map((json) => ({ json }));`,
	);

/** Create or Update Course, mapped from each item, Wait for Completion off: one write a course. */
export const upsertNode = (credential: CredentialJson): NodeSpec =>
	packageNode(
		'Node',
		'learningPlatform',
		courseUpsertNode({ waitForCompletion: false }).parameters,
		credential,
	);

/** n8n's HTTP Request node posting the same body with the same credential (Options → Batching). */
export function httpUpsertNode(
	baseUrl: string,
	credential: CredentialJson,
	batching?: { batchSize: number; batchInterval: number },
): NodeSpec {
	const { type, typeVersion, parameters } = httpCourseUpsertNode(baseUrl, batching);
	return { name: 'Node', type, typeVersion, parameters, credentials: credentialRef(credential) };
}

/**
 * Webhook (POST, answers at once) → Split Out `body.courses` (one item per course) → the
 * package's Create or Update Course with every node setting at its default, except Wait for
 * Completion when `waitForCompletion` is false. A production webhook received by the main process
 * in queue mode becomes a job on the queue that a worker runs.
 */
export function upsertWorkflow(
	name: string,
	webhookPath: string,
	credential: CredentialJson,
	waitForCompletion: boolean,
): { id: string; webhookPath: string; json: WorkflowJson } {
	const json = withId(
		webhookWorkflow(name, webhookPath, 'onReceived', [
			{
				name: 'One item per course',
				type: 'n8n-nodes-base.splitOut',
				parameters: { fieldToSplitOut: 'body.courses', include: 'noOtherFields', options: {} },
			},
			packageNode(
				'Create or update course',
				'learningPlatform',
				{
					resource: 'course',
					operation: 'upsert',
					externalId: { __rl: true, mode: 'id', value: '={{ $json.externalId }}' },
					name: '={{ $json.name }}',
					url: '={{ $json.url }}',
					options: waitForCompletion ? {} : { waitForCompletion: false },
				},
				credential,
			),
		]),
	);
	return { id: json.id, webhookPath, json: { ...json, active: false } };
}
