/** The shape of GET /__sandbox/state and Sandbox.state(). */

import type { StoredCourse } from './courses';
import type { StoredStatement } from './lrs';
import type { TransactionRecord } from './transactions';
import type { AssignmentState } from './userCourses';

export interface SandboxState {
	/**
	 * Courses as stored (the full metadata of the last applied upsert, more than the list
	 * shows), keyed by external_id. `id` is a UUID and `ecl_id` equals it.
	 */
	courses: Record<string, StoredCourse>;
	/**
	 * Keyed by `email|external_id` (email lower-cased). A write keeps the dates it does not
	 * carry; after a withdraw the next write starts afresh; `assigned_date` is never null.
	 */
	assignments: Record<string, AssignmentState>;
	/** Every accepted write, oldest first. */
	transactions: TransactionRecord[];
	tokensIssued: number;
	/** Course upserts applied per external_id (failed transactions do not count). */
	writesAppliedByExternalId: Record<string, number>;
	/** The xAPI push endpoint: the statements recorded (oldest first) and the tokens issued. */
	lrs: { statements: StoredStatement[]; tokensIssued: number };
}
