import { COURSES_PATH, lastSeq, requestsSince } from '../../harness/lmsSandbox';
import { lmsNode } from '../../harness/nodes';
import { runSingleNode } from '../../harness/runNode';
import { countRequests } from '../../harness/sandboxRequests';
import { delay } from '../../harness/processes';
import type { LmsSoakContext } from './context';
import { inputIndexOf } from './context';
import { emptyTally, errorOf, recordErrors, type SoakTally } from './tally';

interface CourseSent {
	externalId: string;
	name: string;
	url: string;
	description: string;
	tags: string;
}

function coursesToSend(count: number): CourseSent[] {
	return Array.from({ length: count }, (_, i) => ({
		externalId: `soak-course-${i}`,
		name: `Soak course ${i}`,
		url: `https://learn.example.com/soak/${i}`,
		description: `Course ${i} of the fault-injection soak`,
		tags: `soak,batch-${i % 10}`,
	}));
}

/**
 * Upserts `count` courses in one workflow run with Continue On Fail, then compares every item's
 * outcome with the sandbox's stored courses. Returns the external ids the sandbox holds, for the
 * assignments to use.
 */
export async function soakCourses(
	context: LmsSoakContext,
	count: number,
): Promise<{ tally: SoakTally; storedIds: string[] }> {
	const started = Date.now();
	const tally = emptyTally('course upserts');
	const courses = coursesToSend(count);
	const lastSeqBefore = lastSeq(context.sandbox);
	const run = await runSingleNode({
		node: lmsNode({
			resource: 'course',
			operation: 'upsert',
			externalId: '={{ $json.externalId }}',
			name: '={{ $json.name }}',
			url: '={{ $json.url }}',
			additionalFields: { description: '={{ $json.description }}', tags: '={{ $json.tags }}' },
		}),
		items: courses.map((course) => ({ ...course })),
		source: context.source,
		credentialsHelper: context.credentialsHelper,
	});
	if (run.error) throw new Error(`The course upsert run stopped: ${run.error}`);
	await delay(context.transactionDelayMs + 200); // let every accepted write apply
	const state = context.sandbox.state();
	const errorByIndex = new Map<number, string>();
	for (const item of run.items) {
		const message = errorOf(item);
		const index = inputIndexOf(item);
		if (message !== undefined && index !== undefined) errorByIndex.set(index, message);
	}
	tally.sent = count;
	courses.forEach((course, index) => {
		const stored = state.courses[course.externalId];
		const matches =
			stored !== undefined &&
			stored.name === course.name &&
			stored.url === course.url &&
			stored.description === course.description &&
			stored.tags.join(',') === course.tags;
		if (errorByIndex.has(index)) {
			tally.reportedErrors++;
			if (matches) tally.reportedButApplied++;
		} else if (matches) {
			tally.delivered++;
		} else {
			tally.lost++;
		}
	});
	const sentIds = new Set(courses.map((course) => course.externalId));
	// The store keys courses by external id; anything else there would be a stray record.
	tally.duplicated = Object.keys(state.courses).filter((id) => !sentIds.has(id)).length;
	const repeated = Object.values(state.writesAppliedByExternalId).filter(
		(writes) => writes > 1,
	).length;
	if (repeated > 0)
		tally.remarks.push(
			`${repeated} courses were written more than once (a repeat after a dropped answer; an upsert by external id makes that harmless)`,
		);
	if (run.items.length !== count)
		tally.remarks.push(`the node put out ${run.items.length} items for ${count} inputs`);
	recordErrors(tally, [...errorByIndex.values()]);
	const counts = countRequests(requestsSince(context.sandbox, lastSeqBefore), COURSES_PATH);
	tally.requests = counts.total;
	tally.faults = counts.byFault;
	tally.seconds = Math.round((Date.now() - started) / 100) / 10;
	return {
		tally,
		storedIds: courses
			.map((course) => course.externalId)
			.filter((id) => state.courses[id] !== undefined),
	};
}
