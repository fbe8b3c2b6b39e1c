import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { randomUUID } from 'crypto';
import { z } from 'zod';

import type { Statement } from '../validation';
import { illFormedAt, NOT_WELL_FORMED } from '../../shared/items/input';
import { formatIssues, formatPath, validateStatement } from '../validation';

export type StatementWithId = Statement & { id: string };

/** The id is fixed before the first attempt; ill-formed text would be stored as U+FFFD, so it is refused. */
export function checkedStatement(
	node: INode,
	itemIndex: number,
	statement: unknown,
	labelOf: (path: string) => string = (path) => path,
): StatementWithId {
	const result = validateStatement(statement);
	const broken = illFormedAt(statement);
	const found = [
		...(result.ok ? [] : result.issues),
		...(broken ? [{ path: formatPath(broken), message: NOT_WELL_FORMED }] : []),
	];
	if (found.length > 0) {
		const issues = found.map((issue) => ({ ...issue, path: labelOf(issue.path) }));
		throw new NodeOperationError(
			node,
			`Invalid statement on item ${itemIndex}: ${formatIssues(issues)}`,
			{
				itemIndex,
				description: issues.map((issue) => `• ${issue.path}: ${issue.message}`).join('\n'),
			},
		);
	}
	const original = statement as Statement;
	// The id goes first so that it is the first thing seen in the output and in the store's logs.
	return { id: original.id ?? randomUUID(), ...original } as StatementWithId;
}

/** So that a problem reads "Activity ID: …" rather than "object.id: …". */
const FORM_LABELS: Array<[RegExp, (match: RegExpExecArray) => string]> = [
	[/^actor\.name$/, () => 'Actor Name'],
	[/^actor(\.mbox)?$/, () => 'Actor Email'],
	[/^verb(\.id)?$/, () => 'Verb'],
	[/^object(\.id)?$/, () => 'Activity ID'],
	[/^object\.definition\.type$/, () => 'Activity Type'],
	[/^object\.definition\.name/, () => 'Activity Name'],
	[/^object\.definition\.description/, () => 'Additional Fields → Activity Description'],
	[/^result\.score(\.scaled)?$/, () => 'Additional Fields → Score (Scaled)'],
	[/^result\.success$/, () => 'Additional Fields → Success'],
	[/^result\.completion$/, () => 'Additional Fields → Completion'],
	[/^result\.duration$/, () => 'Additional Fields → Duration'],
	[/^context\.registration$/, () => 'Additional Fields → Registration'],
	[
		/^context\.contextActivities\.category\[(\d+)\](\.id)?/,
		(m) => `Additional Fields → Categories → ID (category ${Number(m[1]) + 1})`,
	],
	[/^context\.instructor\.name$/, () => 'Additional Fields → Instructor Name'],
	[/^context\.instructor\.account\.homePage$/, () => 'Additional Fields → Instructor Home Page'],
	[/^context\.instructor\.account\.name$/, () => 'Additional Fields → Instructor Account Name'],
	[/^timestamp$/, () => 'Additional Fields → Timestamp'],
	[/^id$/, () => 'Additional Fields → Statement ID'],
];

export function formLabelOf(path: string): string {
	for (const [pattern, label] of FORM_LABELS) {
		const match = pattern.exec(path);
		if (match) return label(match);
	}
	return path;
}

export const statementIdSchema = z
	.string()
	.trim()
	.regex(
		/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
		'must be a statement ID (a UUID like 8f87ccde-bb56-4c2e-ab83-44982ef22df0)',
	);
