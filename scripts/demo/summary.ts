/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import { refusedByThrottle, type DemoContext } from './run';
import type { CatalogOutcome } from './steps/catalogSync';
import type { CompletionOutcome } from './steps/completions';
import type { HireOutcome } from './steps/newHire';
import type { ChatOutcome } from './steps/statementsToChat';

export interface Outcomes {
	nights: CatalogOutcome[];
	hire: HireOutcome;
	completions: CompletionOutcome;
	chat: ChatOutcome;
}

/** The story in numbers, with the platform's own count of transactions as the last check. */
export function summarize(context: DemoContext, outcomes: Outcomes): void {
	const { sandbox } = context.services;
	const state = sandbox.state();
	const requests = sandbox.requests();
	const byStatus = new Map<string, number>();
	for (const transaction of state.transactions)
		byStatus.set(transaction.status, (byStatus.get(transaction.status) ?? 0) + 1);
	const { hire, completions, chat } = outcomes;

	console.log('\nSummary');
	const nights = outcomes.nights.map(
		(night, index) => `night ${index + 1}: ${night.upserted} written, ${night.archived} archived`,
	);
	console.log(`   courses pushed      ${nights.join('; ')}`);
	console.log(
		`   transactions        ${state.transactions.length} accepted by the platform: ` +
			[...byStatus].map(([status, count]) => `${count} ${status}`).join(', '),
	);
	console.log(
		`   assignments         ${hire.assigned} made (due ${hire.dueDate}), ${hire.refused} refused (unknown learner); ${completions.completed} completions`,
	);
	console.log(
		`   xAPI statements     ${completions.statements} recorded, ${chat.pickedUp} picked up by the trigger, ${chat.messages} chat messages`,
	);
	console.log(
		`   LMS API             ${requests.length} requests, ${state.tokensIssued} access token(s) issued, ` +
			`${refusedByThrottle(requests)} refused by the throttle`,
	);

	const failed = state.transactions.filter((transaction) => transaction.status === 'failed');
	context.checks.check(
		'the only failed transactions are the two made on purpose for someone the platform does not know',
		failed.length === 2 &&
			failed.every((transaction) =>
				/User not found: r\.iverson@contractor\.net/.test(String(transaction.response.message)),
			),
		JSON.stringify(failed.map((transaction) => transaction.response.message)),
	);
}
