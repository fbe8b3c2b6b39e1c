/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { stable } from '../checks';
import { listOf, parseCsv } from '../../../harness/csv';
import { EXAMPLES_DIR, loadExample, setField } from '../examples';
import { jsonOf, refusedByThrottle, runExample, type DemoContext } from '../run';

export const CATALOG_CSV = path.join(EXAMPLES_DIR, 'catalog.csv');

export interface CatalogOutcome {
	upserted: number;
	archived: number;
}

/** What the sandbox should hold for one row of the file, read straight from the file. */
function expectedCourse(row: Record<string, string>) {
	const price = Number(row.price);
	return {
		name: row.name,
		url: row.url,
		description: row.description,
		content_type: row.content_type,
		level: row.level,
		duration_sec: Number(row.duration_sec),
		tags: listOf(row.tags),
		skills: listOf(row.skills),
		published_at: row.published_at,
		image_url: row.image_url,
		prices_data: price > 0 ? [{ amount: price, currency: row.currency }] : [],
		status: 'active',
	};
}

/**
 * Runs "Nightly catalog sync" once, as the schedule would (its remembered state kept between
 * nights), and checks the platform matches the file and that only what changed was written.
 */
export async function catalogSync(context: DemoContext, night: number): Promise<CatalogOutcome> {
	const { sandbox } = context.services;
	const { checks } = context;
	const workflow = loadExample('catalog-sync.json');
	// The one change a user makes: where the file is.
	setField(workflow, 'Config', 'catalogPath', CATALOG_CSV);

	const rows = parseCsv(fs.readFileSync(CATALOG_CSV, 'utf8'));
	const fileIds = new Set(rows.map((row) => row.external_id));
	const before = sandbox.state().courses;
	const expectedCreated = rows
		.filter((row) => !before[row.external_id])
		.map((row) => row.external_id);
	const expectedArchived = Object.values(before)
		.filter((course) => !fileIds.has(course.external_id) && course.status !== 'archived')
		.map((course) => course.external_id)
		.sort();

	console.log(`\n${night}. Night ${night}: "${workflow.name}" (examples/catalog-sync.json)`);
	const { result, seconds, lmsRequests } = await runExample(context, workflow);

	const parsed = jsonOf(result, 'Parse CSV rows');
	const output = jsonOf(result, 'Sync catalog');
	const byAction = (action: string) => output.filter((item) => item.action === action);
	const idsOf = (action: string) =>
		byAction(action)
			.map((item) => String(item.externalId))
			.sort();
	const written = [...byAction('created'), ...byAction('updated'), ...byAction('archived')];
	const refused = refusedByThrottle(lmsRequests);
	const posts = lmsRequests.filter(
		(request) => request.method === 'POST' && request.path.endsWith('/courses.json'),
	);

	console.log(`   read ${parsed.length} rows from examples/catalog.csv`);
	console.log(
		`   ${byAction('created').length} created, ${byAction('updated').length} updated, ` +
			`${byAction('unchanged').length} unchanged, ${byAction('archived').length} archived` +
			(byAction('archived').length
				? ` (${byAction('archived')
						.map((item) => item.externalId)
						.join(', ')})`
				: ''),
	);
	console.log(
		`   ${lmsRequests.length} LMS API requests (${posts.length} course writes) in ${seconds.toFixed(1)} s, ${refused} refused by the throttle`,
	);

	checks.same('every row of the file reached the sync node', parsed.length, rows.length);
	checks.same(
		'the courses new to the platform were created, the others written only if they changed',
		idsOf('created'),
		[...expectedCreated].sort(),
	);
	checks.same(
		'every row got one output item with its action',
		output.filter((item) => item.action !== 'archived').length,
		rows.length,
	);
	const after = sandbox.state();
	const mismatches = rows.filter((row) => {
		const stored = after.courses[row.external_id] as unknown as Record<string, unknown> | undefined;
		if (!stored) return true;
		const expected = expectedCourse(row);
		const actual = Object.fromEntries(Object.keys(expected).map((key) => [key, stored[key]]));
		return stable(actual) !== stable(expected);
	});
	checks.check(
		`the sandbox holds all ${rows.length} courses exactly as the file describes them (name, url, level, price, tags, …)`,
		mismatches.length === 0,
		mismatches
			.slice(0, 3)
			.map((row) => `${row.external_id}: stored ${stable(after.courses[row.external_id])}`)
			.join('\n         '),
	);
	checks.same('only the courses written were sent (one POST each)', posts.length, written.length);
	const transactions = new Map(
		after.transactions.map((transaction) => [transaction.id, transaction.status]),
	);
	checks.check(
		`the sandbox shows each of the ${written.length} transactions the node reported as finished with success`,
		written.every((item) => transactions.get(String(item.transactionId)) === 'success'),
		written
			.map((item) => `${String(item.externalId)}: ${transactions.get(String(item.transactionId))}`)
			.join(', '),
	);
	checks.same(
		`archived exactly the courses that left the file and were not archived yet (${expectedArchived.length})`,
		idsOf('archived'),
		expectedArchived,
	);
	const archivedInSandbox = Object.values(after.courses)
		.filter((course) => course.status === 'archived')
		.map((course) => course.external_id)
		.sort();
	checks.same(
		'the sandbox shows archived exactly the courses not in the file',
		archivedInSandbox,
		Object.keys(after.courses)
			.filter((id) => !fileIds.has(id))
			.sort(),
	);
	checks.check(
		'the throttle never had to refuse a request (the node kept under 300 a minute by itself)',
		refused === 0,
		`${refused} requests answered 429`,
	);
	return {
		upserted: byAction('created').length + byAction('updated').length,
		archived: byAction('archived').length,
	};
}
