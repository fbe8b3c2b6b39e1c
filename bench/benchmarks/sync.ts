/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import type { IDataObject } from 'n8n-workflow';

import type { PackageSource } from '../../harness/nodeTypes';
import { withClient } from '../lib/client';
import { lmsNode } from '../../harness/nodes';
import { requestKinds } from '../../harness/sandboxRequests';
import { check, round, type TargetCheck } from '../lib/stats';
import type { Row } from '../lib/table';
import type { BenchmarkOutcome } from './types';

const CATALOG_SIZE = Number(process.env.BENCH_SYNC_SIZE ?? 5000);
/** Shares of the catalog that change, and that leave the file, between the two nights. */
const CHANGED_SHARE = 0.01;
const GONE_SHARE = 0.005;
const PAGE_SIZE = 50;
const RATE_PER_MIN = 300;

/** A catalog row as the example's mapping step makes it: the platform's course object. */
function row(n: number, edition = 1): IDataObject {
	return {
		external_id: `sync-${n}`,
		name: `Course ${n}${edition > 1 ? ` (edition ${edition})` : ''}`,
		url: `https://learn.example.com/sync/${n}`,
		description: `What course ${n} teaches, in a sentence or two.`,
		content_type: n % 3 === 0 ? 'video' : 'course',
		level: ['beginner', 'intermediate', 'advanced'][n % 3],
		duration_sec: 600 + (n % 50) * 60,
		tags: `topic-${n % 17},catalog`,
		skills: `skill-${n % 23}`,
		published_at: '2026-01-15',
		prices_data: n % 4 === 0 ? [{ amount: 19.5, currency: 'USD' }] : [],
	};
}

const syncNode = (options: IDataObject = {}) =>
	lmsNode({
		resource: 'course',
		operation: 'sync',
		inputMode: 'json',
		course: '={{ $json }}',
		options: { archiveMissing: true, ...options },
	});

/** Today's upsert path for the same JSON rows (the former two-node example, fields mapped). */
const upsertNode = () =>
	lmsNode({
		resource: 'course',
		operation: 'upsert',
		inputMode: 'json',
		course: '={{ $json }}',
		options: { waitForCompletion: true },
	});

interface Count extends ReturnType<typeof requestKinds> {
	run: string;
	nodeMs: number;
	failed: number;
}

/**
 * M = 5,000 courses: the first and second night of Sync Catalog (1 % changed, 0.5 % gone), and
 * the same two nights on today's upsert path (every row upserted and confirmed, the catalog
 * listed, the missing courses archived). Requests are counted from the sandbox's log with no
 * throttle; minutes are what those requests cost of the client's 300 a minute.
 */
export async function runSyncBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	const counts: Count[] = [];
	let bytesPerCourse = 0;
	const changed = Math.round(CATALOG_SIZE * CHANGED_SHARE);
	const gone = Math.round(CATALOG_SIZE * GONE_SHARE);
	const options = {
		latencyMs: 0,
		rateLimitPerMinute: 0,
		transactionDelayMs: 0,
		maxPageSize: PAGE_SIZE,
	};
	await withClient(source, { ...options, clientId: 'bench-sync' }, async (client, sandbox) => {
		const night1 = Array.from({ length: CATALOG_SIZE }, (_, n) => row(n));
		// Night 2: every 100th course changed (half a listed field, half one only the fingerprint knows), the last 0.5 % gone.
		const night2 = night1.slice(0, CATALOG_SIZE - gone).map((course, n) => {
			if (n % Math.round(1 / CHANGED_SHARE) !== 1) return course;
			return Math.floor(n / 100) % 2
				? row(n, 2)
				: { ...course, level: 'advanced', content_type: 'article' };
		});
		const measure = async (
			name: string,
			runs: () => Promise<{ nodeMs: number; failed: number }>,
		) => {
			const before = (await sandbox.requests()).length;
			const { nodeMs, failed } = await runs();
			const result = {
				run: name,
				...requestKinds((await sandbox.requests()).slice(before)),
				nodeMs,
				failed,
			};
			console.log(
				`  ${name}: ${result.requests} requests (${result.pages} pages, ${result.writes} writes, ${result.checks} checks)`,
			);
			counts.push(result);
		};

		// Sync Catalog, as the scheduled example runs it (its static data kept between nights).
		await sandbox.reset();
		await client.fetchToken();
		const staticData: IDataObject = {};
		const sync = (items: IDataObject[]) => async () => {
			const run = await client.run(syncNode(), items, { staticData, mode: 'trigger' });
			if (run.error) throw new Error(`Sync Catalog stopped: ${run.error}`);
			return { nodeMs: run.executionMs, failed: run.errorItems.length };
		};
		await measure('Sync Catalog, first night (empty platform)', sync(night1));
		await measure('Sync Catalog, second night', sync(night2));
		const scopes = (staticData['node:Node'] as IDataObject).syncedCourses as Record<
			string,
			Record<string, string>
		>;
		const memory = Object.values(scopes)[0];
		bytesPerCourse = Buffer.byteLength(JSON.stringify(memory)) / Object.keys(memory).length;

		// Today's upsert path on a fresh platform.
		await sandbox.reset();
		await client.fetchToken();
		const upsertPath = (items: IDataObject[], archiveIds: string[]) => async () => {
			const upserts = await client.run(upsertNode(), items);
			const listing = await client.run(
				lmsNode({ resource: 'course', operation: 'getMany', returnAll: true, options: {} }),
				[{}],
			);
			let archiveMs = 0;
			let archiveFailed = 0;
			if (archiveIds.length > 0) {
				const archives = await client.run(
					lmsNode({
						resource: 'course',
						operation: 'archive',
						externalId: '={{ $json.external_id }}',
						options: {},
					}),
					archiveIds.map((external_id) => ({ external_id })),
				);
				archiveMs = archives.executionMs;
				archiveFailed = archives.errorItems.length;
			}
			return {
				nodeMs: upserts.executionMs + listing.executionMs + archiveMs,
				failed: upserts.errorItems.length + archiveFailed,
			};
		};
		await measure('upsert path, first night (empty platform)', upsertPath(night1, []));
		const goneIds = night1.slice(CATALOG_SIZE - gone).map((course) => String(course.external_id));
		await measure('upsert path, second night', upsertPath(night2, goneIds));
	});
	const bound = Math.ceil(CATALOG_SIZE / PAGE_SIZE) + 2 * changed + 2 * gone;
	const minutes = (requests: number) => round(requests / RATE_PER_MIN, 1);
	const rows: Row[] = counts.map((c) => ({
		run: c.run,
		'list pages': c.pages,
		writes: c.writes,
		'transaction checks': c.checks,
		'requests in all': c.requests,
		'minutes at 300/min': minutes(c.requests),
		'node run s (no throttle)': round(c.nodeMs / 1000, 1),
		'failed items': c.failed,
	}));
	const second = counts.find((c) => c.run === 'Sync Catalog, second night')!;
	const upsertSecond = counts.find((c) => c.run === 'upsert path, second night')!;
	const ratio = upsertSecond.requests / second.requests;
	const checks: TargetCheck[] = [
		check(
			`second sync, M = ${CATALOG_SIZE}, ${changed} changed, ${gone} gone`,
			`≤ ⌈M/50⌉ + 2·changed + 2·archived = ${bound}`,
			String(second.requests),
			second.requests <= bound && second.failed === 0,
		),
		check(
			'second sync vs the upsert path',
			'≥ 20× fewer requests',
			`${round(ratio, 1)}×`,
			ratio >= 20,
		),
		check(
			'remembered state per course',
			'≤ 64 bytes',
			`${round(bytesPerCourse, 1)} bytes`,
			bytesPerCourse <= 64,
		),
	];
	return {
		title: 'Sync Catalog: requests per night, and remembered state',
		method: `A catalog of ${CATALOG_SIZE.toLocaleString('en-US')} courses given as the platform's own objects (each with content type, level, skills, tags, duration; a quarter with a price), synced onto an empty sandbox (pages of at most ${PAGE_SIZE}; no throttle and no latency, so the run counts requests rather than waiting for them), then synced again after ${changed} courses (1 %) changed — half in a listed field (the name), half only in fields the listing cannot show (level, content type) — and ${gone} (0.5 %) left the input, with Archive Missing on and the workflow's static data kept between the two runs as n8n keeps it for an active workflow. The same two nights on today's upsert path: every row upserted and confirmed, the catalog listed (Get Many, Return All), and on the second night the missing courses archived (Archive, which lists the catalog once more). Minutes are the requests divided by the platform's 300 a minute: what the night costs of the client's budget. Remembered state: the node's static data after the second night, JSON bytes per course.`,
		rows,
		checks,
	};
}
