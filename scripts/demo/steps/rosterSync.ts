/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { LEAVER, requiredPairs, secondNightRoster } from '../../../harness/roster';
import { EXAMPLES_DIR, loadExample, setField } from '../examples';
import { jsonOf, runExample, type DemoContext } from '../run';

export const ROSTER_CSV = path.join(EXAMPLES_DIR, 'roster.csv');

/** Where the second night's export is written: a folder n8n is allowed to read. */
export const ROSTER_NIGHTS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-demo-roster-'));

export interface RosterOutcome {
	assigned: number;
	updated: number;
	withdrawn: number;
	writes: number;
}

/**
 * Runs "Nightly roster → Sync Assignments" for one night, as the schedule would (its memory kept
 * between nights), and checks the platform's assignments against the export.
 */
export async function rosterSync(
	context: DemoContext,
	night: 1 | 2,
	step: number,
): Promise<RosterOutcome> {
	const { sandbox } = context.services;
	const { checks } = context;
	const workflow = loadExample('roster-sync.json');
	let file = ROSTER_CSV;
	if (night === 2) {
		file = path.join(ROSTER_NIGHTS_DIR, 'roster.csv');
		fs.writeFileSync(file, secondNightRoster(fs.readFileSync(ROSTER_CSV, 'utf8')));
	}
	setField(workflow, 'Config', 'rosterPath', file);
	const wanted = requiredPairs(fs.readFileSync(file, 'utf8'));

	console.log(`\n${step}. Roster night ${night}: "${workflow.name}" (examples/roster-sync.json)`);
	const { result, seconds, lmsRequests } = await runExample(context, workflow);
	const output = jsonOf(result, 'Sync assignments');
	const byAction = (action: string) => output.filter((item) => item.action === action);
	const posts = lmsRequests.filter(
		(request) => request.method === 'POST' && request.path.endsWith('/user_courses.json'),
	);
	console.log(`   ${wanted.length} required pairs in the export`);
	console.log(
		`   ${byAction('assigned').length} assigned, ${byAction('updated').length} updated, ` +
			`${byAction('unchanged').length} unchanged, ${byAction('withdrawn').length} withdrawn; ` +
			`${lmsRequests.length} LMS API requests (${posts.length} assignment writes) in ${seconds.toFixed(1)} s`,
	);

	const state = sandbox.state().assignments;
	const missing = wanted.filter((pair) => {
		const stored = state[`${pair.email.toLowerCase()}|${pair.course}`];
		return stored?.status !== 'assigned' || stored.due_date !== pair.due;
	});
	checks.check(
		`roster night ${night}: the platform holds all ${wanted.length} required assignments with their due dates`,
		missing.length === 0,
		missing.map((pair) => `${pair.email} ${pair.course}`).join(', '),
	);
	checks.same(
		`roster night ${night}: one output item per pair`,
		output.filter((item) => item.action !== 'withdrawn').length,
		wanted.length,
	);
	if (night === 1) {
		checks.same(
			'roster night 1: every pair was assigned',
			byAction('assigned').length,
			wanted.length,
		);
	} else {
		checks.same(
			'roster night 2: the leaver’s pairs were withdrawn, on the platform too',
			byAction('withdrawn')
				.map((item) => `${String(item.email)} ${String(item.externalId)}`)
				.sort(),
			[`${LEAVER} sec-awareness-2026`, `${LEAVER} secure-coding`],
		);
		checks.check(
			'roster night 2: the platform shows the leaver’s assignments withdrawn',
			['sec-awareness-2026', 'secure-coding'].every(
				(course) => state[`${LEAVER}|${course}`]?.status === 'withdraw',
			),
		);
		checks.same(
			'roster night 2: the joiner’s three pairs were assigned',
			byAction('assigned').length,
			3,
		);
		checks.same(
			'roster night 2: the moved start date updated its two pairs',
			byAction('updated').length,
			2,
		);
		checks.same(
			'roster night 2: only what changed was written (3 assigned + 2 updated + 2 withdrawn)',
			posts.length,
			7,
		);
	}
	return {
		assigned: byAction('assigned').length,
		updated: byAction('updated').length,
		withdrawn: byAction('withdrawn').length,
		writes: posts.length,
	};
}
