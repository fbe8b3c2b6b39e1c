/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import type { PackageSource } from '../../harness/nodeTypes';
import { withClient } from '../lib/client';
import { courseItems, courseUpsertNode, lmsNode, MAPPED_COURSE_FIELDS } from '../../harness/nodes';
import { firstErrorMessage, type NodeUnderTest } from '../../harness/runNode';
import { requestKinds } from '../../harness/sandboxRequests';
import { check, round, type TargetCheck } from '../lib/stats';
import type { Row } from '../lib/table';
import type { BenchmarkOutcome } from './types';

const CATALOG_SIZE = Number(process.env.BENCH_CATALOG_SIZE ?? 5000);
const ITEMS = Number(process.env.BENCH_CATALOG_ITEMS ?? 100);
/** The sandbox's largest page (the platform documents none; the node asks for 100 and pages by what comes back). */
const PAGE_SIZE = 50;

const BY_ITEM = MAPPED_COURSE_FIELDS.externalId;

const OPERATIONS: Array<{ name: string; node: () => NodeUnderTest }> = [
	{
		name: 'upsert with Keep Current Values',
		node: () => courseUpsertNode({ keepCurrentValues: true }),
	},
	{
		name: 'archive',
		node: () =>
			lmsNode({ resource: 'course', operation: 'archive', externalId: BY_ITEM, options: {} }),
	},
];

interface CatalogRun {
	operation: string;
	catalog: number;
	items: number;
	pages: number;
	writes: number;
	checks: number;
	other: number;
	expected: number;
	nodeMs: number;
	errorItems: number;
	firstError: string;
}

export async function runCatalogBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	// No throttle and no latency: this counts requests, it does not time them.
	const runs: CatalogRun[] = [];
	const options = {
		latencyMs: 0,
		rateLimitPerMinute: 0,
		transactionDelayMs: 0,
		maxPageSize: PAGE_SIZE,
	};
	await withClient(source, { ...options, clientId: 'bench-catalog' }, async (client, sandbox) => {
		const catalog = courseItems(CATALOG_SIZE, 'catalog');
		const seeded = await client.run(courseUpsertNode({ waitForCompletion: false }), catalog);
		if (seeded.error || seeded.errorItems.length > 0)
			throw new Error(
				`Seeding the catalog failed: ${seeded.error ?? JSON.stringify(seeded.errorItems[0].json)}`,
			);
		// The N courses to work on, spread over the catalog (not all on its first page).
		const step = Math.max(1, Math.floor(CATALOG_SIZE / ITEMS));
		const targets = Array.from({ length: ITEMS }, (_, i) => catalog[(i * step) % CATALOG_SIZE]);
		for (const operation of OPERATIONS) {
			const before = (await sandbox.requests()).length;
			const run = await client.run(operation.node(), targets);
			if (run.error) throw new Error(`${operation.name} stopped the workflow: ${run.error}`);
			const { requests, pages, writes, checks } = requestKinds(
				(await sandbox.requests()).slice(before),
			);
			const result: CatalogRun = {
				operation: operation.name,
				catalog: CATALOG_SIZE,
				items: ITEMS,
				pages,
				writes,
				checks,
				other: requests - pages - writes - checks,
				expected: Math.ceil(CATALOG_SIZE / PAGE_SIZE) + ITEMS,
				nodeMs: run.executionMs,
				errorItems: run.errorItems.length,
				firstError: firstErrorMessage(run),
			};
			console.log(
				`  catalog, ${operation.name}: ${pages} pages + ${writes} writes (+ ${checks} checks) for ${ITEMS} of ${CATALOG_SIZE} courses`,
			);
			runs.push(result);
		}
	});
	const rows: Row[] = runs.map((run) => ({
		operation: run.operation,
		'catalog M': run.catalog,
		'items N': run.items,
		'list pages': run.pages,
		writes: run.writes,
		'⌈M / page⌉ + N': run.expected,
		'transaction checks': run.checks,
		'other requests': run.other,
		'one lookup per item would read': run.items * Math.ceil(run.catalog / PAGE_SIZE),
		'node run s': round(run.nodeMs / 1000, 2),
		'failed items': run.errorItems,
	}));
	const checks: TargetCheck[] = runs.map((run) =>
		check(
			`catalog reads + writes, ${run.operation}, N = ${run.items}, M = ${run.catalog}`,
			`⌈M / page⌉ + N = ${run.expected}`,
			String(run.pages + run.writes + run.other),
			run.pages + run.writes + run.other <= run.expected && run.errorItems === 0,
		),
	);
	const notes = runs
		.filter((run) => run.errorItems > 0)
		.map(
			(run) =>
				`${run.operation}: ${run.errorItems} items failed, the first with "${run.firstError}"`,
		);
	return {
		title: 'Catalog index: archive and Keep Current Values',
		method: `A catalog of ${CATALOG_SIZE.toLocaleString('en-US')} courses in the sandbox (pages of at most ${PAGE_SIZE}, as the sandbox serves them by default; no throttle, no latency), then one execution each of upsert with Keep Current Values and of archive on ${ITEMS} of those courses spread over the catalog, with the node's defaults (writes confirmed). Requests are counted from the sandbox's log for each execution: catalog pages (GET courses.json), writes (POST courses.json), transaction checks (GET request_data, one per confirmed write, counted apart from the target since the formula covers the catalog reads and the writes). The node reads the catalog once per execution into an index by external id (transport/catalog.ts), so the target is one walk of the catalog plus one write per item.`,
		rows,
		checks,
		notes,
	};
}
