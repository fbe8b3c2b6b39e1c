/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import type { IDataObject } from 'n8n-workflow';

import { statementIdFor } from '../../../nodes/XApi/transport/statementIds';
import { basicAuthorization } from '../../../harness/lrs';
import { getStatement, listAllStatements } from '../../../harness/lrsStore';
import { stable } from '../checks';
import { loadExample, pinnedItems } from '../examples';
import { jsonOf, runExample, type DemoContext } from '../run';

const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed';
const COURSE_TYPE = 'http://adlnet.gov/expapi/activities/course';

export interface Completion {
	completionId: string;
	email: string;
	name: string;
	courseExternalId: string;
	courseName: string;
	courseUrl: string;
	completedAt: string;
	scorePercent: number;
	passed: boolean;
	minutesSpent: number;
}

export interface CompletionOutcome {
	completions: Completion[];
	completed: number;
	statements: number;
}

/** The parts of a stored statement that the completion determines. */
function essentials(statement: object | null) {
	const s = (statement ?? {}) as any;
	return {
		actor: { name: s.actor?.name, mbox: s.actor?.mbox },
		verb: s.verb?.id,
		object: {
			id: s.object?.id,
			type: s.object?.definition?.type,
			name: s.object?.definition?.name?.['en-US'],
		},
		result: s.result,
		timestamp: s.timestamp ? new Date(s.timestamp).toISOString() : undefined,
	};
}

function expectedEssentials(c: Completion) {
	return {
		actor: { name: c.name, mbox: `mailto:${c.email}` },
		verb: COMPLETED,
		object: { id: c.courseUrl, type: COURSE_TYPE, name: c.courseName },
		result: {
			completion: true,
			success: c.passed,
			score: { scaled: c.scorePercent / 100 },
			duration: `PT${c.minutesSpent}M`,
		},
		timestamp: new Date(c.completedAt).toISOString(),
	};
}

/** Runs "Course completions → platform + xAPI statement" with its pinned completions. */
export async function completions(context: DemoContext, step: number): Promise<CompletionOutcome> {
	const { sandbox, lrs } = context.services;
	const { checks } = context;
	const workflow = loadExample('completion-chain.json');
	const [event] = pinnedItems(workflow);
	const sent = (event.body as { completions: Completion[] }).completions;

	console.log(`\n${step}. "${workflow.name}" (examples/completion-chain.json)`);
	const lrsRequestsBefore = lrs.requests.length;
	const { result, seconds } = await runExample(context, workflow, [event], 'webhook');
	const marked = jsonOf(result, 'Mark course complete');
	const refused = jsonOf(result, 'Mark course complete', 1);
	const recorded = jsonOf(result, 'Record completed statement');
	const statementPosts = lrs.requests
		.slice(lrsRequestsBefore)
		.filter((request) => request.method === 'POST');
	for (const c of sent) {
		console.log(
			`   ${c.name.padEnd(13)} ${c.courseExternalId.padEnd(19)} ${String(c.scorePercent).padStart(3)}% ${c.passed ? 'passed' : 'failed'}`,
		);
	}
	console.log(
		`   ${marked.filter((item) => item.status === 'success').length} completions recorded on the platform, ${refused.length} refused; ` +
			`${recorded.length} xAPI statements stored in ${statementPosts.length} ${statementPosts.length === 1 ? 'request' : 'requests'} (${seconds.toFixed(1)} s)`,
	);

	checks.same(
		'every completion was marked complete and its transaction succeeded',
		marked
			.map((item) => `${String(item.email)}|${String(item.externalId)}:${String(item.status)}`)
			.sort(),
		sent.map((c) => `${c.email}|${c.courseExternalId}:success`).sort(),
	);
	const assignments = sandbox.state().assignments;
	checks.same(
		'the sandbox shows each course completed on the day it was finished',
		sent.map((c) => {
			const stored = assignments[`${c.email.toLowerCase()}|${c.courseExternalId}`];
			return [stored?.status, stored?.end_date];
		}),
		sent.map((c) => ['completed', c.completedAt.slice(0, 10)]),
	);
	checks.same(
		"each completion became one statement, its ID derived from the completion's ID (the idempotency key)",
		recorded.map((item) => String(item.statementId)).sort(),
		sent.map((c) => statementIdFor(c.completionId)).sort(),
	);
	// Read from the record store itself, past the proxy.
	const auth = basicAuthorization(lrs.basicAuth);
	const stored = await Promise.all(
		sent.map((c) => getStatement(lrs.storeEndpoint, auth, statementIdFor(c.completionId))),
	);
	const wrong = sent.filter(
		(c, index) => stable(essentials(stored[index])) !== stable(expectedEssentials(c)),
	);
	checks.check(
		'the record store holds each statement: learner, "completed", course URL and type, score, pass/fail, time spent',
		wrong.length === 0,
		wrong
			.map((c) => `${c.completionId}: ${stable(essentials(stored[sent.indexOf(c)]))}`)
			.join('\n         '),
	);
	return {
		completions: sent,
		completed: marked.filter((item) => item.status === 'success').length,
		statements: stored.filter(Boolean).length,
	};
}

/**
 * The sender delivers again: one completion it already sent (say its first delivery timed out)
 * and one for someone the platform has no account for. The repeat must not store a second
 * statement; the refused one must get none.
 */
export async function redelivery(context: DemoContext, first: Completion[]): Promise<void> {
	const { lrs } = context.services;
	const { checks } = context;
	const workflow = loadExample('completion-chain.json');
	const [event] = pinnedItems(workflow);
	const repeated = first[0];
	const stranger: Completion = {
		...repeated,
		completionId: '9c41d7e2-0b5f-4a8e-b3c6-7d2e1f0a9b05',
		email: 'r.iverson@contractor.net',
		name: 'Robin Iverson',
	};
	const body = { ...(event.body as IDataObject), completions: [repeated, stranger] };
	const { result } = await runExample(context, workflow, [{ ...event, body }], 'webhook');
	const marked = jsonOf(result, 'Mark course complete');
	const notRecorded = jsonOf(result, 'Completion not recorded');
	const recorded = jsonOf(result, 'Record completed statement');
	const total = (await listAllStatements(lrs.storeEndpoint, basicAuthorization(lrs.basicAuth)))
		.size;
	console.log(
		`   the sender delivers again: ${repeated.name}'s completion once more, and one for ${stranger.email} → ` +
			`${marked.length} marked complete, ${notRecorded.length} not recorded` +
			(notRecorded.length ? ` (${String(notRecorded[0].reason)})` : ''),
	);
	console.log(`   the record store still holds ${total} statements`);
	checks.same(
		'the repeat is completed again and its statement sent with the same ID',
		[
			marked.map((item) => `${String(item.email)}:${String(item.status)}`),
			recorded.map((item) => item.statementId),
		],
		[[`${repeated.email}:success`], [statementIdFor(repeated.completionId)]],
	);
	checks.check(
		'the refused completion goes to "Completion not recorded" with the platform\'s reason, and gets no statement',
		notRecorded.length === 1 &&
			notRecorded[0].email === stranger.email &&
			/User not found/.test(String(notRecorded[0].reason)),
		JSON.stringify(notRecorded),
	);
	checks.same(
		'the record store holds no second copy and nothing for the refused completion',
		total,
		first.length,
	);
}
