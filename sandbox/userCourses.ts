/** Assignments and completions: POST /api/developer/v2/user_courses.json. */

import type { CourseStore } from './courses';
import type { TransactionOutcome } from './transactions';
import {
	FieldErrors,
	isAbsent,
	isDateLike,
	isEmail,
	isJsonObject,
	requireText,
	type JsonObject,
} from './validation';

/** `Started` has a capital S in the platform's documentation, and only that spelling is accepted. */
export const ASSIGNMENT_STATUSES = ['assigned', 'withdraw', 'completed', 'Started'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

export interface AssignmentWrite {
	email_id: string;
	external_id: string;
	status: AssignmentStatus;
	due_date: string | null;
	assigned_date: string | null;
	end_date: string | null;
}

export interface AssignmentState extends AssignmentWrite {
	/** How many writes were applied to this (email, external_id) pair. */
	writes: number;
	updated_at: string;
}

export type AssignmentInput =
	| { ok: true; write: AssignmentWrite }
	| { ok: false; errors: FieldErrors };

function readDate(body: JsonObject, field: string, errors: FieldErrors): string | null {
	const value = body[field];
	if (isAbsent(value)) return null;
	if (!isDateLike(value)) {
		errors.add(field, 'must be a date (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601)');
		return null;
	}
	return value;
}

export function parseAssignmentInput(body: unknown): AssignmentInput {
	const errors = new FieldErrors();
	if (!isJsonObject(body)) {
		errors.add('base', 'the body must be a JSON object');
		return { ok: false, errors };
	}
	const email = requireText(body, 'email_id', errors);
	if (email !== undefined && !isEmail(email)) errors.add('email_id', 'must be an email address');
	const externalId = requireText(body, 'external_id', errors);
	const status = body.status;
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

	/** Applies an accepted write when its transaction completes. */
	apply(write: AssignmentWrite, now: number): TransactionOutcome {
		// Only content created through the API can be assigned, and only if that create has completed.
		if (!this.courses.get(write.external_id)) {
			return { ok: false, message: `Content not found for external_id ${write.external_id}` };
		}
		if (!this.isKnownUser(write.email_id)) {
			return { ok: false, message: `User not found: ${write.email_id}` };
		}
		const key = AssignmentStore.key(write.email_id, write.external_id);
		const writes = (this.byKey.get(key)?.writes ?? 0) + 1;
		this.byKey.set(key, { ...write, writes, updated_at: new Date(now).toISOString() });
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
