import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from '../../harness/credentialsHelper';
import { runWorkflow, type RunResult } from '../../harness/engine';
import { lastSeq, requestsSince } from '../../harness/lmsSandbox';
import type { LoggedRequest } from '../../sandbox/server';
import type { Checklist } from './checks';
import { pinnedItems, triggerOf, type ExampleWorkflow } from './examples';
import type { Services } from './services';

/** What every step of the demo works with. */
export interface DemoContext {
	services: Services;
	checks: Checklist;
	/** One for the whole demo, as n8n keeps credentials (and the saved access token) in its database. */
	credentialsHelper: HarnessCredentialsHelper;
	/** Each workflow's static data by name, kept between its runs as n8n keeps it for an active workflow. */
	staticData: Record<string, IDataObject>;
}

export interface ExampleRun {
	result: RunResult;
	seconds: number;
	/** The LMS API requests this run made, from the sandbox's log. */
	lmsRequests: LoggedRequest[];
}

/**
 * Runs an example workflow through n8n's execution engine with the package as built (dist/),
 * starting at its trigger with the items the trigger would emit (its pinned ones unless given),
 * as an active workflow runs.
 */
export async function runExample(
	context: DemoContext,
	workflow: ExampleWorkflow,
	startItems = pinnedItems(workflow),
	mode: WorkflowExecuteMode = 'trigger',
): Promise<ExampleRun> {
	const { sandbox } = context.services;
	const before = lastSeq(sandbox);
	const started = Date.now();
	const result = await runWorkflow({
		workflow: { ...workflow, nodes: structuredClone(workflow.nodes) },
		startNode: triggerOf(workflow).name,
		startItems,
		mode,
		source: 'dist',
		credentialsHelper: context.credentialsHelper,
		staticData: (context.staticData[workflow.name] ??= {}),
	});
	const seconds = (Date.now() - started) / 1000;
	const lmsRequests = requestsSince(sandbox, before);
	context.checks.check(
		`"${workflow.name}" ran to the end`,
		result.error === undefined,
		result.error ? `${result.error.message}${describe(result.error)}` : undefined,
	);
	return { result, seconds, lmsRequests };
}

function describe(error: { description?: string | null }): string {
	return error.description ? `\n         ${error.description.split('\n').join('\n         ')}` : '';
}

/** The JSON of a node's output items; none when the node did not run (nothing reached it). */
export function jsonOf(result: RunResult, nodeName: string, output = 0): IDataObject[] {
	const taskData = result.run.data.resultData.runData[nodeName]?.[0];
	return (taskData?.data?.main?.[output] ?? []).map((item) => item.json);
}

/** How many of these requests the sandbox's throttle refused (429). */
export function refusedByThrottle(requests: LoggedRequest[]): number {
	return requests.filter((request) => request.status === 429).length;
}
