/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import { statementIdFor } from '../../../nodes/XApi/transport/statementIds';
import type { IDataObject } from 'n8n-workflow';

import { TriggerPoller } from '../../../harness/poll';
import { loadExample, setParameter, triggerOf, type ExampleWorkflow } from '../examples';
import { jsonOf, runExample, type DemoContext } from '../run';
import type { Completion } from './completions';

export interface ChatRelay {
	workflow: ExampleWorkflow;
	trigger: string;
	poller: TriggerPoller;
}

export interface ChatOutcome {
	pickedUp: number;
	messages: number;
}

/** One poll of the trigger: the new items, oldest first (empty when there is nothing new). */
async function newItems(poller: TriggerPoller): Promise<IDataObject[]> {
	const output = await poller.poll();
	return (output?.[0] ?? []).map((item) => item.json);
}

/**
 * Activates "xAPI completions → team chat": the trigger's first poll only notes where the
 * record store stands, so statements stored before activation are never replayed.
 */
export async function activateChatRelay(context: DemoContext, step: number): Promise<ChatRelay> {
	const workflow = loadExample('completion-chain-trigger.json');
	const trigger = triggerOf(workflow).name;
	console.log(`\n${step}. Activating "${workflow.name}" (examples/completion-chain-trigger.json)`);
	// The one change a user makes: where the chat's incoming webhook is.
	setParameter(workflow, 'Post to team chat', 'url', context.services.chat.url);
	const poller = new TriggerPoller({
		workflow: { ...workflow, settings: { executionOrder: 'v1' } },
		trigger,
		source: 'dist',
		credentialsHelper: context.credentialsHelper,
	});
	const first = await newItems(poller);
	console.log(
		`   the first poll of "${trigger}" notes where the record store stands: ${first.length} statements passed on`,
	);
	context.checks.same('the first poll after activation emits nothing', first.length, 0);
	return { workflow, trigger, poller };
}

/** The next poll of the trigger, and the run it starts. */
export async function relayToChat(
	context: DemoContext,
	relay: ChatRelay,
	sent: Completion[],
	step: number,
): Promise<ChatOutcome> {
	const { checks } = context;
	const { chat } = context.services;
	console.log(`\n${step}. A minute later: "${relay.workflow.name}" polls again`);
	const statements = await newItems(relay.poller);
	console.log(`   "${relay.trigger}" found ${statements.length} new completed statements`);
	checks.same(
		'the trigger picked up exactly the statements just recorded',
		statements.map((statement) => String(statement.id)).sort(),
		sent.map((c) => statementIdFor(c.completionId)).sort(),
	);

	const before = chat.messages.length;
	const { seconds, result } = await runExample(context, relay.workflow, statements);
	const messages = chat.messages.slice(before);
	console.log(
		`   the run they started posted ${messages.length} messages to the team chat (${seconds.toFixed(1)} s):`,
	);
	for (const message of messages) console.log(`     ${String(message.text)}`);
	checks.same(
		'"Shape chat message" made one message per statement',
		jsonOf(result, 'Shape chat message').length,
		statements.length,
	);
	checks.same(
		'the chat received one message per completion, naming the learner, the course and the score',
		messages.map((message) => String(message.text)).sort(),
		sent.map((c) => `🎓 ${c.name} completed "${c.courseName}" with ${c.scorePercent}%`).sort(),
	);

	const again = await newItems(relay.poller);
	console.log(
		`   the poll after that found ${again.length} (each statement starts the workflow once)`,
	);
	checks.same('a further poll emits nothing new', again.length, 0);
	return { pickedUp: statements.length, messages: messages.length };
}
