import { lastSeq, requestsSince } from '../../harness/lmsSandbox';
import { lmsNode } from '../../harness/nodes';
import { runSingleNode } from '../../harness/runNode';
import { countRequests } from '../../harness/sandboxRequests';
import { delay } from '../../harness/processes';
import type { LmsSoakContext } from './context';
import { inputIndexOf } from './context';
import { addFaults, emptyTally, errorOf, recordErrors, type SoakTally } from './tally';

const USER_COURSES_PATH = '/api/developer/v2/user_courses.json';

type AssignmentOperation = 'assign' | 'start' | 'complete';

const STATUS_OF: Record<AssignmentOperation, string> = {
	assign: 'assigned',
	start: 'Started',
	complete: 'completed',
};

interface Pair {
	email: string;
	externalId: string;
}

interface SentOperation {
	pair: Pair;
	operation: AssignmentOperation;
	failed: boolean;
}

const keyOf = (pair: Pair) => `${pair.email.toLowerCase()}|${pair.externalId}`;

/**
 * The phases a user's workflows would run one after another: assign (40 % of the operations),
 * start three quarters of those pairs, then complete (30 %) some only assigned and the rest
 * from the started ones. Each phase holds every pair at most once, so the last operation sent per pair is
 * well defined even though the node runs items concurrently.
 */
function planPhases(
	count: number,
	courseIds: string[],
): Array<{ operation: AssignmentOperation; pairs: Pair[] }> {
	const assignCount = Math.round(count * 0.4);
	const startCount = Math.round(count * 0.3);
	const completeCount = count - assignCount - startCount;
	const pairs: Pair[] = Array.from({ length: assignCount }, (_, i) => ({
		email: `learner${i % 97}@example.com`,
		externalId: courseIds[(i * 7) % courseIds.length],
	}));
	const unique = new Map(pairs.map((pair) => [keyOf(pair), pair]));
	const distinct = [...unique.values()];
	const started = distinct.slice(0, Math.min(startCount, distinct.length));
	const onlyAssigned = distinct.slice(started.length);
	const completedFromAssigned = onlyAssigned.slice(
		0,
		Math.min(onlyAssigned.length, Math.floor(completeCount / 2)),
	);
	const completedFromStarted = started.slice(0, completeCount - completedFromAssigned.length);
	return [
		{ operation: 'assign', pairs: distinct },
		{ operation: 'start', pairs: started },
		{ operation: 'complete', pairs: [...completedFromStarted, ...completedFromAssigned] },
	];
}

function operationNode(operation: AssignmentOperation) {
	return lmsNode({
		resource: 'assignment',
		operation,
		email: '={{ $json.email }}',
		externalId: '={{ $json.externalId }}',
		...(operation === 'complete' ? { endDate: '={{ $json.endDate }}' } : {}),
		...(operation === 'assign' ? { additionalFields: { dueDate: '={{ $json.dueDate }}' } } : {}),
	});
}

/**
 * Runs the assignment phases on courses the sandbox holds, then checks each pair's final
 * status: the last operation whose item succeeded must be what the sandbox shows. When a later
 * operation on the pair failed (reported), either status is accepted: the write may or may not
 * have gone through before the failure.
 */
export async function soakAssignments(
	context: LmsSoakContext,
	count: number,
	courseIds: string[],
): Promise<SoakTally> {
	const started = Date.now();
	const tally = emptyTally('assignment operations');
	if (courseIds.length === 0) throw new Error('No stored course to assign');
	const lastSeqBefore = lastSeq(context.sandbox);
	const sent: SentOperation[] = [];
	const errors: string[] = [];
	for (const phase of planPhases(count, courseIds)) {
		if (phase.pairs.length === 0) continue;
		const items = phase.pairs.map((pair) => ({
			...pair,
			endDate: '2025-06-30',
			dueDate: '2025-12-31',
		}));
		const run = await runSingleNode({
			node: operationNode(phase.operation),
			items,
			source: context.source,
			credentialsHelper: context.credentialsHelper,
		});
		if (run.error) throw new Error(`The ${phase.operation} run stopped: ${run.error}`);
		const failedIndexes = new Set<number>();
		for (const item of run.items) {
			const message = errorOf(item);
			const index = inputIndexOf(item);
			if (message === undefined || index === undefined) continue;
			failedIndexes.add(index);
			errors.push(message);
		}
		phase.pairs.forEach((pair, index) =>
			sent.push({ pair, operation: phase.operation, failed: failedIndexes.has(index) }),
		);
		// Writes apply after the transaction delay: let this phase's settle before the next starts.
		await delay(context.transactionDelayMs + 200);
	}
	const state = context.sandbox.state();
	const byPair = new Map<string, SentOperation[]>();
	for (const operation of sent)
		byPair.set(keyOf(operation.pair), [...(byPair.get(keyOf(operation.pair)) ?? []), operation]);
	tally.sent = sent.length;
	for (const [key, operations] of byPair) {
		const stored = state.assignments[key];
		const lastSucceeded = [...operations].reverse().find((operation) => !operation.failed);
		const lastIndex = operations.length - 1;
		const acceptable = new Set<string>();
		// The last success, and any status sent after it (failed, so perhaps applied).
		const from = lastSucceeded ? operations.lastIndexOf(lastSucceeded) : 0;
		for (let i = from; i <= lastIndex; i++) acceptable.add(STATUS_OF[operations[i].operation]);
		const storedOk =
			stored !== undefined ? acceptable.has(stored.status) : lastSucceeded === undefined;
		for (const operation of operations) {
			if (operation.failed) {
				tally.reportedErrors++;
				if (stored?.status === STATUS_OF[operation.operation]) tally.reportedButApplied++;
			} else if (operation === lastSucceeded ? storedOk : true) {
				// An earlier success that a later operation replaced was delivered too.
				tally.delivered++;
			} else {
				tally.lost++;
			}
		}
	}
	const sentKeys = new Set(byPair.keys());
	tally.duplicated = Object.keys(state.assignments).filter(
		(key) => key.includes('@example.com|soak-course-') && !sentKeys.has(key),
	).length;
	const failedTransactions = state.transactions.filter(
		(transaction) => transaction.path === USER_COURSES_PATH && transaction.status === 'failed',
	);
	if (failedTransactions.length > 0)
		tally.remarks.push(
			`${failedTransactions.length} assignment transactions failed in the sandbox (first: ${failedTransactions[0].response.message})`,
		);
	recordErrors(tally, errors);
	const counts = countRequests(requestsSince(context.sandbox, lastSeqBefore), USER_COURSES_PATH);
	tally.requests = counts.total;
	addFaults(tally, counts.byFault);
	tally.seconds = Math.round((Date.now() - started) / 100) / 10;
	return tally;
}
