/**
 * What the benchmarks in a real n8n import: an LMS credential, the package's Create or Update
 * Course and n8n's HTTP Request node posting the same body, and the bulk workflow of the queue
 * and hires benchmarks.
 */
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
