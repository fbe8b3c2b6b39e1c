/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { requiredPairs } from '../../../harness/roster';
import { loadExample, setField } from '../examples';
import { jsonOf, runExample, type DemoContext } from '../run';
import { ROSTER_CSV, ROSTER_NIGHTS_DIR } from './rosterSync';

export interface ReviewOutcome {
	held: boolean;
	withdrawn: number;
	planId: string;
}

const pairsOf = (changes: IDataObject[], action: string) =>
	changes
		.filter((change) => change.action === action)
		.map((change) => `${String(change.email)} ${String(change.externalId)}`)
		.sort();

/**
 * "Nightly roster with review" (examples/roster-review.json) for two nights, as the schedule would
 * run it: a normal night goes straight through; a truncated export is held at the Wait node with
 * a review request in the chat, and once approved (the execution resumed) carries out exactly the
 * withdrawals the dry run planned.
 */
export async function rosterReview(context: DemoContext, step: number): Promise<ReviewOutcome> {
	const { sandbox, chat } = context.services;
	const { checks } = context;
	const workflow = loadExample('roster-review.json');
	setField(workflow, 'Config', 'reviewWebhookUrl', chat.url);
	const night = async (file: string) => {
		setField(workflow, 'Config', 'rosterPath', file);
		return await runExample(context, workflow);
	};

	console.log(`\n${step}. Roster with review: "${workflow.name}" (examples/roster-review.json)`);
	const full = requiredPairs(fs.readFileSync(ROSTER_CSV, 'utf8'));
	const normal = await night(ROSTER_CSV);
	const normalPlan = jsonOf(normal.result, 'Plan the night')[0] ?? {};
	const normalRun = jsonOf(normal.result, 'Sync assignments')[0] ?? {};
	console.log(
		`   night 1: plan ${String(normalPlan.planId)} needs no approval; ` +
			`${JSON.stringify(normalRun.counts)} in ${normal.seconds.toFixed(1)} s`,
	);
	checks.check('review night 1: a normal night is not held', normal.result.resume === undefined);
	checks.same(
		'review night 1: every required pair assigned, once',
		(normalRun.counts as IDataObject | undefined)?.assigned,
		full.length,
	);

	// A truncated export: only the first three employees.
	const truncated = path.join(ROSTER_NIGHTS_DIR, 'roster-truncated.csv');
	const lines = fs.readFileSync(ROSTER_CSV, 'utf8').trimEnd().split('\n');
	fs.writeFileSync(truncated, `${lines.slice(0, 4).join('\n')}\n`);
	const kept = new Set(
		requiredPairs(fs.readFileSync(truncated, 'utf8')).map((p) => `${p.email} ${p.course}`),
	);
	const leaving = full
		.map((p) => `${p.email} ${p.course}`)
		.filter((pair) => !kept.has(pair))
		.sort();
	const messagesBefore = chat.messages.length;
	const held = await night(truncated);
	const plan = jsonOf(held.result, 'Plan the night')[0] ?? {};
	const planned = pairsOf((plan.changes as IDataObject[]) ?? [], 'withdrawn');
	const review = chat.messages.slice(messagesBefore).at(-1);
	const withdrawalsSent = () =>
		sandbox
			.requests()
			.filter((r) => r.method === 'POST' && r.path.endsWith('/user_courses.json'))
			.filter((r) =>
				(typeof r.body === 'string' ? r.body : JSON.stringify(r.body)).includes('"withdraw"'),
			).length;
	const sentBefore = withdrawalsSent();
	console.log(`   night 2 (export cut to 3 of 10 employees): ${String(plan.guard)}`);
	console.log(
		`   held at "Wait for approval": review request in the chat for plan ${String(review?.planId)}; nothing withdrawn yet`,
	);
	checks.check(
		'review night 2: the truncated export is held at the Wait node',
		held.result.resume !== undefined,
	);
	checks.check(
		'review night 2: nothing was written before the approval',
		held.result.run.data.resultData.runData['Sync assignments'] === undefined,
	);
	checks.same('review night 2: the dry run planned the leavers’ withdrawals', planned, leaving);
	checks.same('review night 2: the review request names the plan', review?.planId, plan.planId);

	const approved = await held.result.resume!();
	const done = jsonOf(approved, 'Sync assignments')[0] ?? {};
	const carried = pairsOf((done.changes as IDataObject[]) ?? [], 'withdrawn');
	const state = sandbox.state().assignments;
	console.log(
		`   approved (the execution resumed): ${carried.length} withdrawn, exactly the plan; ${withdrawalsSent() - sentBefore} withdrawals sent`,
	);
	checks.check(
		'review night 2: the approved run ended',
		approved.error === undefined,
		approved.error?.message,
	);
	checks.same(
		'review night 2: exactly the approved withdrawals were carried out',
		carried,
		planned,
	);
	checks.same(
		'review night 2: one withdrawal sent per planned pair',
		withdrawalsSent() - sentBefore,
		planned.length,
	);
	checks.check(
		'review night 2: the platform shows them withdrawn',
		leaving.every((pair) => {
			const [email, course] = pair.split(' ');
			return state[`${email}|${course}`]?.status === 'withdraw';
		}),
	);
	return { held: true, withdrawn: carried.length, planId: String(plan.planId) };
}
