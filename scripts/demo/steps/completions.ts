/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import type { IDataObject } from 'n8n-workflow';

import { XAPI_VERSION_HEADER } from '../../../test/e2e/lib/lrs';
import { stable } from '../checks';
import { loadExample, pinnedItems, triggerOf } from '../examples';
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

/** A statement as the record store itself holds it, read past the proxy. */
async function storedStatement(storeEndpoint: string, id: string): Promise<IDataObject | undefined> {
	const response = await fetch(`${storeEndpoint}/statements?statementId=${encodeURIComponent(id)}`, { headers: XAPI_VERSION_HEADER });
	return response.ok ? ((await response.json()) as IDataObject) : undefined;
}

/** The parts of a stored statement that the completion determines. */
function essentials(statement: IDataObject | undefined) {
	const s = (statement ?? {}) as any;
	return {
		actor: { name: s.actor?.name, mbox: s.actor?.mbox },
		verb: s.verb?.id,
		object: { id: s.object?.id, type: s.object?.definition?.type, name: s.object?.definition?.name?.['en-US'] },
		result: s.result,
		timestamp: s.timestamp ? new Date(s.timestamp).toISOString() : undefined,
	};
}

function expectedEssentials(c: Completion) {
	return {
		actor: { name: c.name, mbox: `mailto:${c.email}` },
		verb: COMPLETED,
		object: { id: c.courseUrl, type: COURSE_TYPE, name: c.courseName },
		result: { completion: true, success: c.passed, score: { scaled: c.scorePercent / 100 }, duration: `PT${c.minutesSpent}M` },
		timestamp: new Date(c.completedAt).toISOString(),
	};
}

/** Runs "Course completions → platform + xAPI statement" with its pinned completions. */
export async function completions(context: DemoContext, step: number): Promise<CompletionOutcome> {
	const { sandbox, lrs } = context.services;
	const { checks } = context;
	const workflow = loadExample('completion-chain.json');
	const trigger = triggerOf(workflow).name;
	const [event] = pinnedItems(workflow, trigger);
	const sent = (event.body as { completions: Completion[] }).completions;

	console.log(`\n${step}. "${workflow.name}" (examples/completion-chain.json)`);
	const lrsRequestsBefore = lrs.requests.length;
	const { result, seconds } = await runExample(context, workflow, trigger, [event], 'webhook');
	const marked = jsonOf(result, 'Mark course complete');
	const refused = jsonOf(result, 'Mark course complete', 1);
	const recorded = jsonOf(result, 'Record completed statement');
	const statementPosts = lrs.requests.slice(lrsRequestsBefore).filter((request) => request.method === 'POST');
	for (const c of sent) {
		console.log(`   ${c.name.padEnd(13)} ${c.courseExternalId.padEnd(19)} ${String(c.scorePercent).padStart(3)}% ${c.passed ? 'passed' : 'failed'}`);
	}
	console.log(
		`   ${marked.filter((item) => item.status === 'success').length} completions recorded on the platform, ${refused.length} refused; ` +
			`${recorded.length} xAPI statements stored in ${statementPosts.length} request(s) (${seconds.toFixed(1)} s)`,
	);

	checks.same(
		'every completion was marked complete and its transaction succeeded',
		marked.map((item) => `${String(item.email)}|${String(item.externalId)}:${String(item.status)}`).sort(),
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
		'each completion became one statement, its ID the completion\'s ID',
		recorded.map((item) => String(item.statementId)).sort(),
		sent.map((c) => c.completionId).sort(),
	);
	const stored = await Promise.all(sent.map((c) => storedStatement(lrs.storeEndpoint, c.completionId)));
	const wrong = sent.filter((c, index) => stable(essentials(stored[index])) !== stable(expectedEssentials(c)));
	checks.check(
		'the record store holds each statement: learner, "completed", course URL and type, score, pass/fail, time spent',
		wrong.length === 0,
		wrong.map((c) => `${c.completionId}: ${stable(essentials(stored[sent.indexOf(c)]))}`).join('\n         '),
	);
	return {
		completions: sent,
		completed: marked.filter((item) => item.status === 'success').length,
		statements: stored.filter(Boolean).length,
	};
}
