/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import { resultsMarkdown } from './markdown';
import type { ResultEntry } from './results';
import { BENCH_DIR, saveResults } from './results';

/** Stores the new entries in results.json, then regenerates RESULTS.md from all it holds. */
export function writeResults(entries: ResultEntry[]): void {
	fs.writeFileSync(path.join(BENCH_DIR, 'RESULTS.md'), resultsMarkdown(saveResults(entries)));
}
