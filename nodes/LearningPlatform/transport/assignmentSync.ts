import type { SyncContract } from '../../shared/sync/engine';
import { memberKey, OURS_UNCONFIRMED, splitKey } from '../../shared/sync/memory';
import type { Assignment } from './assignments';
import { sendAssignment } from './assignments';
import type { PostUnconfirmed } from './courseSync';
import { digest, lmsSync, lookAlike } from './courseSync';
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

export function assignmentSyncContract(
	run: LmsRun,
	write: () => WriteSettings,
): SyncContract<PairValues, never> {
	const { send, ...shared } = lmsSync(run, write);
	const post =
		(
			itemIndex: number,
			assignment: Assignment,
			onAccepted?: (tx: string) => void,
		): PostUnconfirmed =>
		async (writeRun, settings) =>
			await sendAssignment(writeRun, itemIndex, assignment, { ...settings, onAccepted });
	return {
		words: {
			title: 'Sync Assignments',
			idName: 'Pair',
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
		lookAlike,
		compare: (values, _listed, remembered, full) => {
			if (remembered === undefined) return { kind: 'new', changed: [] };
			if (!full && remembered === datesFingerprint(values)) return { kind: 'same' };
			return { kind: 'changed', changed: remembered === OURS_UNCONFIRMED ? [] : ['dates'] };
		},
		returning: () => ({ kind: 'new', changed: [] }),
		fingerprint: datesFingerprint,
		echo: (id) => {
			const [email, externalId] = splitKey(id);
			return { email, externalId };
		},
		write: async (itemIndex, values, place) =>
			await send(itemIndex, place, post(itemIndex, { operation: 'assign', ...values })),
		remove: async (carrier, pair, place, onAccepted) => {
			const [email, externalId] = splitKey(pair.id);
			return await send(
				carrier,
				place,
				post(carrier, { operation: 'withdraw', email, externalId }, onAccepted),
			);
		},
		keepsRemoved: false,
		claimsUnconfirmed: true,
		...shared,
	};
}
