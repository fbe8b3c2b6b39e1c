/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import type { UpsertRun } from '../benchmarks/upsert';
import { REAL_RATE_TARGET_RATIO } from '../benchmarks/upsert';
import { resultsMarkdown } from './markdown';
import type { ResultEntry } from './results';
import { BENCH_DIR, saveResults } from './results';
import { throughputSvg } from './svg';

/** Stores the new entries in results.json, then regenerates RESULTS.md and throughput.svg from all it holds. */
export function writeResults(entries: ResultEntry[]): void {
	const results = saveResults(entries);
	fs.writeFileSync(path.join(BENCH_DIR, 'RESULTS.md'), resultsMarkdown(results));
	const upsert = results.entries.upsert?.outcome.details as
		| { runs: UpsertRun[]; realRateRequestsPerMinute?: number; realRateItems?: number }
		| undefined;
	// The chart shows the platform's own rate, where the pacing target applies.
	if (
		upsert?.runs &&
		upsert.realRateRequestsPerMinute &&
		upsert.runs.some((run) => run.requestsPerMinute === upsert.realRateRequestsPerMinute)
	) {
		fs.writeFileSync(
			path.join(BENCH_DIR, 'throughput.svg'),
			throughputSvg(
				upsert.runs,
				upsert.realRateRequestsPerMinute,
				upsert.realRateItems ?? 0,
				REAL_RATE_TARGET_RATIO,
			),
		);
	}
}
