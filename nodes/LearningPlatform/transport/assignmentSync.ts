import type { DryRunFindings, SyncContract } from '../../shared/sync/contract';
import type { Memory } from '../../shared/sync/memory';
import { memberKey, OURS_UNCONFIRMED, splitKey } from '../../shared/sync/memory';
import type { Assignment } from './assignments';
import { sendAssignment } from './assignments';
import type { PostUnconfirmed } from './syncs';
import { digest, listCatalog, lmsSync, lookAlike } from './syncs';
import type { LmsRun, WriteSettings } from './index';
import { READ_DEADLINE_MS } from './index';

/** The platform cannot list assignments: only pairs this node assigned (from memory) are withdrawn. */

export type PairValues = Pick<Assignment, 'email' | 'externalId' | 'dueDate' | 'assignedDate'>;

/** A pair's id: the learner's email in lower case and the course's external id. */
export function pairId(email: string, externalId: string): string {
	return memberKey(email.trim().toLowerCase(), externalId);
}

/**
 * A dry run sends no assignment, so a course the platform does not have shows up only on the
 * real night, as failed transactions. One listing of the catalog (a read per 100 courses, only
 * when the plan assigns something) finds those courses first; what it cannot read, it says.
 */
async function checkCourses(
	run: LmsRun,
	writes: Array<{ id: string; values: PairValues }>,
): Promise<DryRunFindings> {
	const warnings = new Map<string, string>();
	let listed: string[];
	try {
		const listing = await listCatalog(run, READ_DEADLINE_MS);
		if (listing.endedEarly) {
			return { warnings, notes: [`The courses were not checked: ${listing.endedEarly}.`] };
		}
		listed = listing.existing.map((course) => course.id);
	} catch (error) {
		const reason = (run.mask(error) as Error)?.message ?? String(error);
		return {
			warnings,
			notes: [`The courses were not checked: the catalog could not be listed (${reason}).`],
		};
	}
	const exact = new Set(listed);
	const looks = new Map(listed.map((id) => [lookAlike(id), id]));
	const unknown = new Map<string, number>();
	for (const { id, values } of writes) {
		const course = values.externalId;
		if (exact.has(course)) continue;
		unknown.set(course, (unknown.get(course) ?? 0) + 1);
		const like = looks.get(lookAlike(course));
		warnings.set(
			id,
			`The platform's catalog has no course "${course}"${like === undefined ? '' : ` (it has "${like}")`}: a real run would send this assignment and it would most likely fail.`,
		);
	}
	const courses = new Set(writes.map((write) => write.values.externalId)).size;
	if (unknown.size === 0) {
		return {
			warnings,
			notes: [
				`Every course of the planned assignments (${courses}) is in the platform's catalog (checked in one listing).`,
			],
		};
	}
	const named = [...unknown].map(([course, n]) => `"${course}" (${n})`).join(', ');
	return {
		warnings,
		notes: [
			`${warnings.size} planned assignments name a course the platform's catalog does not have: ${named}. A real run would send them, and each would most likely fail: check the course IDs in the input or its mapping. Each such item carries a warning.`,
		],
	};
}

export function datesFingerprint(values: PairValues): string {
	return digest(`${values.dueDate ?? ''}\u0000${values.assignedDate ?? ''}`, 6);
}

/** Every write is sent with the email as this node assigned it; pairs are compared in any case. */
export function assignmentSyncContract(
	run: LmsRun,
	write: () => WriteSettings,
	{ spelling }: Pick<Memory, 'spelling'>,
): SyncContract<PairValues, never> {
	const { send, ...shared } = lmsSync(run, write);
	const post =
		(itemIndex: number, assignment: Assignment): PostUnconfirmed =>
		async (writeRun, settings) =>
			await sendAssignment(writeRun, itemIndex, assignment, settings);
	const assigned = (id: string) => {
		const [email, externalId] = splitKey(id);
		return { email: spelling.get(email) ?? email, externalId };
	};
	return {
		words: {
			title: 'Sync Assignments',
			idName: 'Learner',
			existing: 'assignments this node made',
			spelledBy: 'this node assigned',
			one: 'assignment',
			many: 'assignments',
			created: 'assigned',
			updated: 'updated',
			removed: 'withdrawn',
			remove: 'withdraw',
			guardOption: 'Max Withdraw Share',
			updateNote:
				"Sent again as assigned with the new dates. The platform documents do not say how it treats a repeated assignment; this node assumes it takes the new dates and keeps the learner's progress.",
			removeNote:
				'A withdrawn pair is withdrawn for every roster on this client: another Sync Assignments that still holds it remembers it as assigned and does not assign it again by itself. Keep each pair in one roster, or run the other roster once with Options → Skip Unchanged off.',
			guardAdvice:
				'A truncated HR export looks like this. If the withdrawals are meant, raise Options → Max Withdraw Share for one run.',
			dryRunUnchecked:
				'A dry run of Sync Assignments sends no assignment: it does not find out whether each learner has an account, whether the platform accepts each assignment, or which pairs were assigned some other way. It checks only that each course of a planned assignment is in the catalog.',
		},
		key: (id) => id,
		idOfKey: (key) => key,
		named: (id) => {
			const { email, externalId } = assigned(id);
			return `"${email}" with course "${externalId}"`;
		},
		lookAlike,
		checkPlanned: async (writes) => await checkCourses(run, writes),
		compare: (values, _listed, remembered, full) => {
			if (remembered === undefined) return { kind: 'new', changed: [] };
			if (!full && remembered === datesFingerprint(values)) return { kind: 'same' };
			return { kind: 'changed', changed: remembered === OURS_UNCONFIRMED ? [] : ['dates'] };
		},
		returning: () => ({ kind: 'new', changed: [] }),
		fingerprint: datesFingerprint,
		echo: assigned,
		write: async (itemIndex, values, place, onAccepted) =>
			await send(itemIndex, place, post(itemIndex, { operation: 'assign', ...values }), (tx) => {
				const group = values.email.toLowerCase();
				if (group === values.email) spelling.delete(group);
				else spelling.set(group, values.email);
				onAccepted(tx);
			}),
		remove: async (pair, place, onAccepted) =>
			await send(0, place, post(0, { operation: 'withdraw', ...assigned(pair.id) }), onAccepted),
		keepsRemoved: false,
		claimsUnconfirmed: true,
		...shared,
	};
}
