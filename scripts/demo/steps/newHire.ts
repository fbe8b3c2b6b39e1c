/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import type { IDataObject } from 'n8n-workflow';

import { loadExample, pinnedItems } from '../examples';
import { jsonOf, runExample, type DemoContext } from '../run';
import { takeWebhookReplies } from '../webhookReplies';

const COURSE = 'onboarding-101';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The due date the workflow should compute, worked out here with plain date arithmetic. */
function twoWeeksAfter(startDate: string): string {
	return new Date(Date.parse(`${startDate}T00:00:00Z`) + 14 * DAY_MS).toISOString().slice(0, 10);
}

export interface HireOutcome {
	assigned: number;
	refused: number;
	dueDate: string;
}

/** Runs "New hire → assign the onboarding course" for the pinned hire, then for a hire the platform does not know. */
export async function newHire(context: DemoContext, step: number): Promise<HireOutcome> {
	const { sandbox } = context.services;
	const { checks } = context;
	const workflow = loadExample('hr-event-to-assignment.json');
	const [event] = pinnedItems(workflow);
	const hire = event.body as IDataObject;
	const email = String(hire.email);
	const dueDate = twoWeeksAfter(String(hire.startDate));

	console.log(`\n${step}. "${workflow.name}" (examples/hr-event-to-assignment.json)`);
	takeWebhookReplies();
	const { result, seconds } = await runExample(context, workflow, [event], 'webhook');
	const [assignment] = jsonOf(result, 'Assign onboarding course');
	const [reply] = takeWebhookReplies();
	const body = (reply?.body ?? {}) as IDataObject;
	console.log(
		`   ${String(hire.name)} <${email}> starts ${String(hire.startDate)} → ${COURSE} assigned, due ${String(body.dueDate)}, ` +
			`transaction ${String(assignment?.status)} (${seconds.toFixed(1)} s)`,
	);
	console.log(`   the HR system gets ${String(reply?.statusCode)} ${JSON.stringify(body)}`);
	checks.same(
		'the HR system is told "assigned", with the due date start + 14 days',
		[reply?.statusCode, body.result, body.dueDate],
		[200, 'assigned', dueDate],
	);
	const stored = sandbox.state().assignments[`${email.toLowerCase()}|${COURSE}`];
	checks.same(
		'the sandbox holds the assignment with that due date',
		{ status: stored?.status, due_date: stored?.due_date },
		{ status: 'assigned', due_date: dueDate },
	);

	// The same workflow for someone the platform has no account for: the error branch answers.
	const stranger = {
		...event,
		body: { ...hire, email: 'r.iverson@contractor.net', name: 'Robin Iverson' },
	};
	const refused = await runExample(context, workflow, [stranger], 'webhook');
	const [refusal] = takeWebhookReplies();
	const refusalBody = (refusal?.body ?? {}) as IDataObject;
	console.log(
		`   a hire the platform has no account for gets ${String(refusal?.statusCode)} ${JSON.stringify(refusalBody)}`,
	);
	checks.check(
		"an unknown learner gets 422 with the platform's reason, through the error output",
		refusal?.statusCode === 422 &&
			/User not found/.test(String(refusalBody.reason)) &&
			jsonOf(refused.result, 'Assign onboarding course', 1).length === 1,
		JSON.stringify(refusal),
	);
	checks.check(
		'the sandbox made no assignment for them',
		sandbox.state().assignments[`r.iverson@contractor.net|${COURSE}`] === undefined,
	);
	return {
		assigned: stored?.status === 'assigned' ? 1 : 0,
		refused: refusal?.statusCode === 422 ? 1 : 0,
		dueDate,
	};
}
