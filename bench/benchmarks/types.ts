import type { Row } from '../lib/table';
import type { TargetCheck } from '../lib/stats';

/** What one benchmark hands back: tables to print and store, checks, and data for the chart. */
export interface BenchmarkOutcome {
	title: string;
	/** One paragraph on what was measured and how. */
	method: string;
	rows: Row[];
	checks: TargetCheck[];
	/** Anything else worth keeping in results.json (e.g. per-run details). */
	details?: unknown;
	/** Explanations of misses or surprises, written into RESULTS.md. */
	notes?: string[];
}
