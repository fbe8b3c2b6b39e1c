/** Assignments and completions: POST /api/developer/v2/user_courses.json. */

import type { CourseStore } from './courses';
import type { TransactionOutcome } from './transactions';
import {
	FieldErrors,
	isAbsent,
	isDateOnly,
	isEmail,
	isJsonObject,
	optionalFields,
	refuseUndocumentedFields,
	requireText,
	type JsonObject,
} from './validation';

/** `Started` has a capital S in the platform's documentation, and only that spelling is accepted. */
export const ASSIGNMENT_STATUSES = ['assigned', 'withdraw', 'completed', 'Started'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** The body fields of section 2 ("Assignment (user course) - request body fields"). */
export const ASSIGNMENT_BODY_FIELDS = [
	'email_id',
	'status',
	'external_id',
	'due_date',
	'assigned_date',
	'end_date',
] as const;

/** The documented default of `status`. */
export const DEFAULT_ASSIGNMENT_STATUS: AssignmentStatus = 'assigned';

/** One accepted write: the dates it did not carry are null. */
export interface AssignmentWrite {
	email_id: string;
	external_id: string;
	status: AssignmentStatus;
	due_date: string | null;
	assigned_date: string | null;
	end_date: string | null;
}

/**
 * What the sandbox holds for one (email, external_id) pair. A write sets what it carries
 * and leaves the rest as it was; after a withdraw the next write starts afresh (the
 * assignment was removed). `assigned_date` is never null: when no write gave one, it is the
 * date (UTC) the request that made the assignment was received, as documented.
 */
export interface AssignmentState extends AssignmentWrite {
	/** How many writes were applied to this (email, external_id) pair. */
	writes: number;
	updated_at: string;
}

export type AssignmentInput =
	| { ok: true; write: AssignmentWrite }
	| { ok: false; errors: FieldErrors };

/** Only YYYY-MM-DD, as documented: a date-time (with a time, a T or a zone) is refused. */
function readDate(body: JsonObject, field: string, errors: FieldErrors): string | null {
	const message = 'must be a date in the form YYYY-MM-DD (no time)';
	return optionalFields(body, errors).read<string | null>(field, null, isDateOnly, message);
}

export function parseAssignmentInput(body: unknown): AssignmentInput {
	const errors = new FieldErrors();
	if (!isJsonObject(body)) {
		errors.add('base', 'the body must be a JSON object');
		return { ok: false, errors };
	}
	refuseUndocumentedFields(body, ASSIGNMENT_BODY_FIELDS, errors);
	const email = requireText(body, 'email_id', errors);
	if (email !== undefined && !isEmail(email)) errors.add('email_id', 'must be an email address');
	const externalId = requireText(body, 'external_id', errors);
	const given = body.status;
	const status = isAbsent(given) ? DEFAULT_ASSIGNMENT_STATUS : given;
	const statusOk =
		typeof status === 'string' && (ASSIGNMENT_STATUSES as readonly string[]).includes(status);
	if (!statusOk) errors.add('status', `must be one of: ${ASSIGNMENT_STATUSES.join(', ')}`);
	const dueDate = readDate(body, 'due_date', errors);
	const assignedDate = readDate(body, 'assigned_date', errors);
	const endDate = readDate(body, 'end_date', errors);
	if (status === 'completed' && isAbsent(body.end_date))
		errors.add('end_date', "can't be blank when status is completed");
	if (!errors.isEmpty || email === undefined || externalId === undefined || !statusOk) {
		return { ok: false, errors };
	}
	return {
		ok: true,
		write: {
			email_id: email,
			external_id: externalId,
			status: status as AssignmentStatus,
			due_date: dueDate,
			assigned_date: assignedDate,
			end_date: endDate,
		},
	};
}

/** The UTC calendar date of a moment, YYYY-MM-DD. */
export function utcDate(time: number): string {
	return new Date(time).toISOString().slice(0, 10);
}

export class AssignmentStore {
	private readonly byKey = new Map<string, AssignmentState>();

	constructor(
		private readonly courses: CourseStore,
		private readonly userDomains: () => readonly string[],
	) {}

	static key(email: string, externalId: string): string {
		return `${email.toLowerCase()}|${externalId}`;
	}

	get(email: string, externalId: string): AssignmentState | undefined {
		return this.byKey.get(AssignmentStore.key(email, externalId));
	}

	isKnownUser(email: string): boolean {
		const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
		return this.userDomains().includes(domain);
	}

	/**
	 * Applies an accepted write when its transaction completes; `receivedAt` is when the
	 * request was received (the documented default of assigned_date is that day).
	 */
	apply(write: AssignmentWrite, now: number, receivedAt: number = now): TransactionOutcome {
		// Only content created through the API can be assigned, and only if that create has completed.
		if (!this.courses.get(write.external_id)) {
			return { ok: false, message: `Content not found for external_id ${write.external_id}` };
		}
		if (!this.isKnownUser(write.email_id)) {
			return { ok: false, message: `User not found: ${write.email_id}` };
		}
		const key = AssignmentStore.key(write.email_id, write.external_id);
		const stored = this.byKey.get(key);
		const writes = (stored?.writes ?? 0) + 1;
		// A withdraw removed the assignment: what follows it starts afresh.
		const base = stored && stored.status !== 'withdraw' ? stored : undefined;
		this.byKey.set(key, {
			email_id: write.email_id,
			external_id: write.external_id,
			status: write.status,
			due_date: write.due_date ?? base?.due_date ?? null,
			assigned_date: write.assigned_date ?? base?.assigned_date ?? utcDate(receivedAt),
			end_date: write.end_date ?? base?.end_date ?? null,
			writes,
			updated_at: new Date(now).toISOString(),
		});
		const done: Record<AssignmentStatus, string> = {
			assigned: 'Content assigned',
			withdraw: 'Assignment withdrawn',
			completed: 'Completion recorded',
			Started: 'Content started',
		};
		return { ok: true, message: done[write.status] };
	}

	snapshot(): Record<string, AssignmentState> {
		return structuredClone(Object.fromEntries(this.byKey));
	}

	clear(): void {
		this.byKey.clear();
	}
}
