/**
 * What the queue and hires benchmarks import into n8n: an LMS credential (one per configuration,
 * differing in Requests per Minute only) and the bulk workflow, Webhook → Split Out → Create or
 * Update Course. A production webhook received by the main process in queue mode becomes a job
 * on the queue that a worker runs.
 */
import { LMS_CREDENTIAL, lmsCredentialData } from '../../harness/nodes';
import { packageNode, webhookWorkflow } from '../../harness/workflowBuilder';
import { newN8nId, withId, type CredentialJson, type WorkflowJson } from '../../harness/workflowJson';

export function lmsCredential(
	name: string,
	sandbox: { url: string; clientId: string; clientSecret: string },
	requestsPerMinute: number,
): CredentialJson {
	const data = lmsCredentialData(sandbox, requestsPerMinute);
	return { id: newN8nId(), name, type: LMS_CREDENTIAL, data };
}

export interface QueueWorkflow {
	id: string;
	webhookPath: string;
	json: WorkflowJson;
}

/**
 * Webhook (POST, answers at once) → Split Out `body.courses` (one item per course) → the
 * package's Create or Update Course with every node setting at its default, except Wait for
 * Completion when `waitForCompletion` is false.
 */
export function upsertWorkflow(
	name: string,
	webhookPath: string,
	credential: CredentialJson,
	waitForCompletion: boolean,
): QueueWorkflow {
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
