/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import type { IDataObject } from 'n8n-workflow';

import type { PackageSource } from '../../harness/nodeTypes';
import type { LoggedRequest } from '../../sandbox/server';
import { withClient } from '../lib/client';
import { lmsNode } from '../../harness/nodes';
import { check, round, type TargetCheck } from '../lib/stats';
import type { Row } from '../lib/table';
import {
	assignmentSyncContract,
	pairId,
} from '../../nodes/LearningPlatform/transport/assignmentSync';
import type { LmsRun } from '../../nodes/LearningPlatform/transport';
import { planSync } from '../../nodes/shared/sync/plan';
import { openMemory } from '../../nodes/shared/sync/memory';
import type { BenchmarkOutcome } from './types';

const LEARNERS = Number(process.env.BENCH_ROSTER_LEARNERS ?? 20_000);
const COURSES = ['compliance-101', 'security-awareness', 'onboarding-essentials'];
const CHANGED_SHARE = 0.01;
const GONE_SHARE = 0.005;
const RATE_PER_MIN = 300;

interface Pair extends IDataObject {
	email: string;
	course: string;
	due: string;
}

const pairs = (): Pair[] =>
	Array.from({ length: LEARNERS }, (_, n) =>
		COURSES.map((course) => ({
			email: `employee${n}@example.com`,
			course,
			due: `2026-${String(1 + (n % 12)).padStart(2, '0')}-15`,
		})),
	).flat();

const fields = {
	email: '={{ $json.email }}',
	externalId: '={{ $json.course }}',
	additionalFields: { dueDate: '={{ $json.due }}' },
};
/** The courses the roster assigns, upserted before each night. */
const courseNode = () =>
	lmsNode({
		resource: 'course',
		operation: 'upsert',
		externalId: '={{ $json.id }}',
		name: '={{ $json.id }}',
		url: '=https://learn.example.com/{{ $json.id }}',
		options: {},
	});

const syncNode = () =>
	lmsNode({
		resource: 'assignment',
		operation: 'sync',
		...fields,
		options: { withdrawMissing: true },
	});
const assignNode = () =>
	lmsNode({ resource: 'assignment', operation: 'assign', ...fields, options: {} });
const withdrawNode = () =>
	lmsNode({
		resource: 'assignment',
		operation: 'withdraw',
		email: '={{ $json.email }}',
		externalId: '={{ $json.course }}',
		options: {},
	});

interface Count {
	run: string;
	requests: number;
	writes: number;
	checks: number;
	nodeMs: number;
	failed: number;
}

/**
 * A roster of 20,000 learners × 3 courses (60,000 pairs): the first and second night of Sync
 * Assignments (1 % of the pairs with a moved due date, 0.5 % gone), and the same two nights on
 * the Assign path (every pair assigned and confirmed each night; the leavers withdrawn).
 */
export async function runRosterBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	const counts: Count[] = [];
	const night1 = pairs();
	const total = night1.length;
	const gone = Math.round(total * GONE_SHARE);
	const changed = Math.round(total * CHANGED_SHARE);
	const night2 = night1
		.slice(0, total - gone)
		.map((pair, n) =>
			n % Math.round(1 / CHANGED_SHARE) === 7 ? { ...pair, due: '2027-06-30' } : pair,
		);
	const leavers = night1.slice(total - gone);
	let bytesPerPair = 0;
	let planMs = 0;
	let engineMs = 0;
	const options = { latencyMs: 0, rateLimitPerMinute: 0, transactionDelayMs: 0 };
	await withClient(source, { ...options, clientId: 'bench-roster' }, async (client, sandbox) => {
		const courses = await client.run(
			courseNode(),
			COURSES.map((id) => ({ id })),
		);
		if (courses.error) throw new Error(`Seeding courses failed: ${courses.error}`);
		// The sandbox's log keeps the last 50,000 requests: a night is counted by sequence numbers
		// (every request) and accepted transactions (every write); the rest are transaction checks.
		const lastSeq = (log: LoggedRequest[]) => (log.length > 0 ? log[log.length - 1].seq : 0);
		const measure = async (
			name: string,
			runs: () => Promise<{ nodeMs: number; failed: number }>,
		) => {
			const before = lastSeq(await sandbox.requests());
			const writesBefore = (await sandbox.state()).transactions.length;
			const { nodeMs, failed } = await runs();
			const log = await sandbox.requests();
			const tokens = log.filter(
				(entry) => entry.seq > before && entry.path.endsWith('/oauth/token'),
			).length;
			const requests = lastSeq(log) - before - tokens;
			const writes = (await sandbox.state()).transactions.length - writesBefore;
			const result: Count = {
				run: name,
				requests,
				writes,
				checks: requests - writes,
				nodeMs,
				failed,
			};
			console.log(
				`  ${name}: ${result.requests} requests (${result.writes} writes, ${result.checks} checks), ${round(nodeMs / 1000, 1)} s`,
			);
			counts.push(result);
		};

		const staticData: IDataObject = {};
		const sync =
			(items: IDataObject[], options: { dryRun?: boolean } = {}) =>
			async () => {
				const node = syncNode();
				if (options.dryRun) (node.parameters.options as IDataObject).dryRun = true;
				const run = await client.run(node, items, { staticData, mode: 'trigger' });
				if (run.error) throw new Error(`Sync Assignments stopped: ${run.error}`);
				return { nodeMs: run.executionMs, failed: run.errorItems.length };
			};
		await measure('Sync Assignments, first night', sync(night1));
		// The plan alone: a dry run of the second night sends nothing, so its time is the plan's.
		const dry = await sync(night2, { dryRun: true })();
		planMs = dry.nodeMs;
		await measure('Sync Assignments, second night', sync(night2));
		const scopes = (staticData['node:Node'] as IDataObject).syncedAssignments as Record<
			string,
			IDataObject
		>;
		bytesPerPair = Buffer.byteLength(JSON.stringify(Object.values(scopes)[0])) / night2.length;
		engineMs = timePlan(staticData, Object.keys(scopes)[0], night2);

		await sandbox.reset();
		await client.fetchToken();
		await client.run(
			courseNode(),
			COURSES.map((id) => ({ id })),
		);
		const assignPath = (items: IDataObject[], withdraw: IDataObject[]) => async () => {
			const assigned = await client.run(assignNode(), items);
			let ms = assigned.executionMs;
			let failed = assigned.errorItems.length;
			if (withdraw.length > 0) {
				const withdrawn = await client.run(withdrawNode(), withdraw);
				ms += withdrawn.executionMs;
				failed += withdrawn.errorItems.length;
			}
			return { nodeMs: ms, failed };
		};
		await measure('Assign path, first night', assignPath(night1, []));
		await measure('Assign path, second night', assignPath(night2, leavers));
	});
	const minutes = (requests: number) => round(requests / RATE_PER_MIN, 1);
	const rows: Row[] = counts.map((c) => ({
		run: c.run,
		writes: c.writes,
		'transaction checks': c.checks,
		'requests in all': c.requests,
		'minutes at 300/min': minutes(c.requests),
		'node run s (no throttle)': round(c.nodeMs / 1000, 1),
		'failed items': c.failed,
	}));
	const second = counts.find((c) => c.run === 'Sync Assignments, second night')!;
	const assignSecond = counts.find((c) => c.run === 'Assign path, second night')!;
	const bound = 2 * changed + 2 * gone + 10;
	const ratio = assignSecond.requests / second.requests;
	const checks: TargetCheck[] = [
		check(
			`second night, ${total} pairs, ${changed} changed, ${gone} gone`,
			`≤ 2·changed + 2·withdrawn + 10 = ${bound}`,
			String(second.requests),
			second.requests <= bound && second.failed === 0,
		),
		check(
			'second night vs the Assign path',
			'≥ 50× fewer requests',
			`${round(ratio, 1)}×`,
			ratio >= 50,
		),
		check(
			'remembered state per pair',
			'≤ 24 bytes',
			`${round(bytesPerPair, 1)} bytes`,
			bytesPerPair <= 24,
		),
		check(
			`plan of ${night2.length} pairs: memory read and plan made`,
			'≤ 2 s',
			`${round(engineMs / 1000, 2)} s`,
			engineMs <= 2000,
		),
		check(
			`the node's dry run of ${night2.length} pairs (n8n's execution time, items and expressions included)`,
			'—',
			`${round(planMs / 1000, 1)} s`,
			true,
		),
	];
	return {
		title: 'Sync Assignments: a 60,000-pair roster, requests per night and remembered state',
		method: `A roster of ${LEARNERS.toLocaleString('en-US')} learners × ${COURSES.length} courses (${total.toLocaleString('en-US')} pairs, each with a due date) synced onto a sandbox holding the three courses (no throttle, no latency: the run counts requests), then synced again after ${changed} pairs (1 %) had their due date moved and ${gone} (0.5 %) left the roster, with Withdraw Missing on and the workflow's static data kept between the nights. The plan time is the engine's: the memory read from the saved static data and every pair of the second night decided (median of 5, in this process). Beside it, a dry run of the second night through n8n (the node's execution time: n8n reading each item's parameters and expressions, the check of each item, the plan, the output; nothing sent). The same two nights on the Assign path: every pair assigned and confirmed, and on the second night the leavers withdrawn. Minutes are the requests divided by the platform's 300 a minute. Remembered state: JSON bytes of the node's static data after the second night, per pair held.`,
		rows,
		checks,
	};
}

/** The engine's part of the plan: the memory read from static data and every pair decided (median of 5). */
function timePlan(staticData: IDataObject, scope: string, night: Pair[]): number {
	const contract = assignmentSyncContract(
		{ fns: { getNode: () => ({ name: 'Node' }) } } as unknown as LmsRun,
		() => {
			throw new Error('a plan sends nothing');
		},
		{ spelling: new Map() },
	);
	const rows = night.map((pair, itemIndex) => ({
		itemIndex,
		id: pairId(pair.email, pair.course),
		values: { email: pair.email, externalId: pair.course, dueDate: pair.due },
	}));
	const times: number[] = [];
	for (let round = 0; round < 5; round++) {
		const started = performance.now();
		const memory = openMemory(
			{ getWorkflowStaticData: () => staticData['node:Node'] as IDataObject },
			{ owner: 'bench', slot: 'syncedAssignments', scope, grouped: true },
		);
		const existing = [...memory.entries.keys()].map((id) => ({ id }));
		planSync(contract, rows, { existing }, memory.entries, {
			skipUnchanged: true,
			removeMissing: true,
			maxRemoveShare: 10,
		});
		times.push(performance.now() - started);
	}
	return times.sort((a, b) => a - b)[2];
}
