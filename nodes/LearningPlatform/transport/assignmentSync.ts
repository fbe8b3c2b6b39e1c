import type { SyncContract } from '../../shared/sync/contract';
import type { Memory } from '../../shared/sync/memory';
import { memberKey, OURS_UNCONFIRMED, splitKey } from '../../shared/sync/memory';
import type { Assignment } from './assignments';
import { sendAssignment } from './assignments';
import type { PostUnconfirmed } from './syncs';
import { digest, lmsSync, lookAlike } from './syncs';
import type { LmsRun, WriteSettings } from './index';

/** The platform cannot list assignments: only pairs this node assigned (from memory) are withdrawn. */

export type PairValues = Pick<Assignment, 'email' | 'externalId' | 'dueDate' | 'assignedDate'>;

/** A pair's id: the learner's email in lower case and the course's external id. */
export function pairId(email: string, externalId: string): string {
	return memberKey(email.trim().toLowerCase(), externalId);
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
		},
		key: (id) => id,
		idOfKey: (key) => key,
		named: (id) => {
			const { email, externalId } = assigned(id);
			return `"${email}" with course "${externalId}"`;
		},
		lookAlike,
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
