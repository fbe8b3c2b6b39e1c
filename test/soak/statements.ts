import { createCredentialsHelper } from '../../harness/engine';
import type { PackageSource } from '../../harness/nodeTypes';
import { startFaultProxy } from './faultProxy';
import {
	getStatement,
	listAllStatements,
	startLrs,
	type StoredStatement,
} from '../../harness/lrsStore';
import { XAPI_CREDENTIAL, xapiSendNode } from '../../harness/nodes';
import { runSingleNode } from '../../harness/runNode';
import { activityIdOf, makeStatement } from '../../harness/statements';
import { inputIndexOf } from './context';
import { emptyTally, errorOf, recordErrors, type SoakTally } from './tally';

const RUN_TAG = 'soak';

interface SentStatement {
	index: number;
	statement: Record<string, unknown>;
	/** The id the node reported (its own or the one it gave the statement). */
	id?: string;
	error?: string;
}

/** Does the stored statement carry what was sent (actor, verb, object, result)? */
function sameContent(sent: Record<string, unknown>, stored: StoredStatement): boolean {
	const pick = (statement: Record<string, unknown>) =>
		JSON.stringify([
			(statement.actor as { mbox?: string }).mbox,
			(statement.verb as { id?: string }).id,
			(statement.object as { id?: string }).id,
			(statement.result as { score?: { scaled?: number } } | undefined)?.score?.scaled ?? null,
		]);
	return pick(sent) === pick(stored as Record<string, unknown>);
}

/**
 * Sends `count` statements through a fault-injecting proxy in front of a fresh record store:
 * the first half one per request (batchSize 1), the second half in batches of 25; half of the
 * statements carry their own id, the others get one from the node. Then reads the store
 * directly: every statement reported stored must be there once with its content, and no
 * activity may appear twice.
 */
export async function soakStatements(
	count: number,
	faultRate: number,
	source: PackageSource,
): Promise<SoakTally> {
	const started = Date.now();
	const tally = emptyTally('xAPI statements');
	const lrs = await startLrs();
	const proxy = await startFaultProxy({
		target: new URL(lrs.storeEndpoint).origin,
		faultRate,
		seed: 7,
	});
	try {
		const helper = createCredentialsHelper(
			{
				[XAPI_CREDENTIAL]: {
					endpoint: `${proxy.origin}/xAPI`,
					authentication: 'token',
					token: lrs.token,
				},
			},
			source,
		);
		const sent: SentStatement[] = Array.from({ length: count }, (_, index) => ({
			index,
			statement: makeStatement(RUN_TAG, index, { withId: index % 2 === 1 }),
		}));
		const half = Math.ceil(count / 2);
		const runs = [
			{ batchSize: 1, part: sent.slice(0, half) },
			{ batchSize: 25, part: sent.slice(half) },
		];
		for (const { batchSize, part } of runs) {
			if (part.length === 0) continue;
			const run = await runSingleNode({
				node: xapiSendNode(batchSize),
				items: part.map((entry) => ({ statement: entry.statement })),
				source,
				credentialsHelper: helper,
			});
			if (run.error) throw new Error(`The xAPI run (batchSize ${batchSize}) stopped: ${run.error}`);
			for (const item of run.items) {
				const index = inputIndexOf(item);
				if (index === undefined) continue;
				const entry = part[index];
				entry.error = errorOf(item);
				if (typeof item.json.statementId === 'string') entry.id = item.json.statementId;
			}
		}
		proxy.setFaultRate(0);
		const stored = await listAllStatements(lrs.storeEndpoint, lrs.token);
		const byActivity = new Map<string, StoredStatement[]>();
		for (const statement of stored.values()) {
			const activity = statement.object?.id ?? '';
			byActivity.set(activity, [...(byActivity.get(activity) ?? []), statement]);
		}
		tally.sent = count;
		for (const entry of sent) {
			const copies = byActivity.get(activityIdOf(RUN_TAG, entry.index)) ?? [];
			if (copies.length > 1) tally.duplicated++;
			const ownId = entry.statement.id as string | undefined;
			const id = entry.id ?? ownId;
			// Read by id too: the listing of this store is paged by a cursor and is only a cross-check.
			const byId = id ? await getStatement(lrs.storeEndpoint, lrs.token, id) : null;
			const present =
				(byId !== null && sameContent(entry.statement, byId)) ||
				copies.some((copy) => sameContent(entry.statement, copy));
			if (entry.error !== undefined) {
				tally.reportedErrors++;
				if (present) tally.reportedButApplied++;
			} else if (present && copies.length <= 1) {
				tally.delivered++;
			} else if (!present) {
				tally.lost++;
			}
		}
		const sentActivities = new Set(sent.map((entry) => activityIdOf(RUN_TAG, entry.index)));
		const strays = [...byActivity.keys()].filter(
			(activity) => !sentActivities.has(activity),
		).length;
		if (strays > 0) tally.remarks.push(`${strays} statements in the store belong to no item sent`);
		const repeatedPosts = proxy.log.filter(
			(entry) =>
				entry.fault === 'drop-after-forward' &&
				entry.upstreamStatus !== null &&
				entry.upstreamStatus < 300,
		).length;
		if (repeatedPosts > 0)
			tally.remarks.push(
				`${repeatedPosts} requests reached the store but their answer was dropped; the node's repeat carried the same statement ids`,
			);
		recordErrors(
			tally,
			sent.flatMap((entry) => (entry.error !== undefined ? [entry.error] : [])),
		);
		tally.requests = proxy.log.length;
		tally.faults = proxy.faultCounts();
	} finally {
		await proxy.close();
		await lrs.stop();
	}
	tally.seconds = Math.round((Date.now() - started) / 100) / 10;
	return tally;
}
