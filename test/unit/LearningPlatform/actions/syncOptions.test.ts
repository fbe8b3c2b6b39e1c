/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { HarnessNodeTypes } from '../../../../harness/nodeTypes';
import { LearningPlatform } from '../../../../nodes/LearningPlatform/LearningPlatform.node';
import { withFormDefaults } from '../../../helpers/workflows';

/*
 * The sync forms as the editor shows them: the subtitle and the notice that tell a dry run from
 * a real sync, the safeties in sight on a fresh form, 0 explained beside each number.
 */

const { description } = new LearningPlatform();
const nodeTypes = new HarnessNodeTypes('source');
const SYNCS = [
	{ resource: 'assignment', remove: 'Withdraw', action: 'Sync assignments' },
	{ resource: 'course', remove: 'Archive', action: 'Sync the course catalog' },
] as const;

function nodeWith(parameters: INodeParameters): INode {
	return {
		id: '1',
		name: 'Sync',
		type: 'n8n-nodes-learning-platform.learningPlatform',
		typeVersion: 1.1,
		position: [0, 0],
		parameters,
	};
}

const withDefaults = (node: INode) => withFormDefaults(description, node);

/** The subtitle as the editor's canvas works it out (workflows.store: getNodeSubtitle). */
function subtitleOf(node: INode): unknown {
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'internal', {});
}

function syncOptions(resource: string): INodeProperties {
	return description.properties.find(
		(p) =>
			p.name === 'options' &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes('sync'),
	)!;
}

describe.each(SYNCS)('the $resource sync form', ({ resource, remove, action }) => {
	const sync = { resource, operation: 'sync' };

	test('its subtitle tells a dry run from a real sync', () => {
		const dry = nodeWith({ ...sync, options: { dryRun: true } });
		const real = nodeWith({ ...sync, options: { dryRun: false } });
		const fresh = nodeWith(sync);
		expect(subtitleOf(dry)).toBe(`Dry run: ${action.charAt(0).toLowerCase()}${action.slice(1)}`);
		expect(subtitleOf(real)).toBe(action);
		expect(subtitleOf(fresh)).toBe(action);
		expect(subtitleOf({ ...fresh, parameters: withDefaults(fresh) })).toBe(action);
	});

	test('a notice says so while Dry Run is on, and only then', () => {
		const notice = description.properties.find(
			(p) => p.name === 'dryRunNotice' && p.displayOptions?.show?.resource?.includes(resource),
		)!;
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/^Dry Run is on: this node only plans/);
		const shown = (options: INodeParameters) => {
			const node = nodeWith({ ...sync, options });
			return NodeHelpers.displayParameter(withDefaults(node), notice, node, description);
		};
		expect(shown({ dryRun: true })).toBe(true);
		expect(shown({ dryRun: false })).toBe(false);
		expect(shown({})).toBe(false);
		const elsewhere = nodeWith({ resource, operation: 'get', options: { dryRun: true } });
		expect(
			NodeHelpers.displayParameter(withDefaults(elsewhere), notice, elsewhere, description),
		).toBe(false);
	});

	test('a fresh form shows the share in force', () => {
		const options = syncOptions(resource);
		const share = (options.options as INodeProperties[]).find(
			(o) => o.name === `max${remove}Share`,
		)!;
		expect(options.default).toEqual({ [share.name]: share.default });
		expect(share.default).toBe(10);
		const fresh = nodeWith(sync);
		expect(withDefaults(fresh).options).toEqual({ [share.name]: 10 });
	});

	test('every number says beside the field what 0 means', () => {
		const numbers = (syncOptions(resource).options as INodeProperties[]).filter(
			(o) => o.type === 'number' && (o.typeOptions?.minValue ?? 1) === 0,
		);
		expect(numbers.map((o) => o.name).sort()).toEqual(
			[`max${remove}Share`, 'maxWritesPerRun', `${remove.toLowerCase()}AfterDays`].sort(),
		);
		for (const option of numbers) expect(option.hint).toMatch(/(^|\. )0: /);
	});

	test('the names say which options protect and which one removes', () => {
		const names = (syncOptions(resource).options as INodeProperties[]).map((o) => o.displayName);
		expect(names.slice(0, 6)).toEqual([
			'Dry Run (Writes Nothing)',
			`Safety: Max ${remove} Share`,
			`Safety: ${remove} After Days`,
			'Safety: Max Writes per Run',
			'Approved Plan',
			`${remove} Missing (Removes)`,
		]);
		expect(names.filter((name) => /Removes/.test(name))).toHaveLength(1);
	});

	test('Approved Plan, Memory Key and Output say their traps', () => {
		const options = syncOptions(resource).options as INodeProperties[];
		const option = (name: string) => options.find((o) => o.name === name)!;
		const plan = option('approvedPlan');
		expect(plan.hint).toMatch(/planId of a dry-run node with the same options/);
		expect(plan.description).toMatch(/changes whenever .* change, and is spent once/);
		expect(plan.description).toMatch(/below the share this changes nothing/);
		expect(option('memoryKey').hint).toMatch(/never share a key.*copied node keeps/);
		const summary = (
			option('output').options as Array<{ value: string; description: string }>
		).find((o) => o.value === 'summary')!;
		expect(summary.description).toMatch(/^One item instead of all the others/);
		expect(summary.description).toMatch(/only with Continue On Fail/);
	});
});

test("Approved Plan's placeholder names the review example's dry-run node", () => {
	const review = JSON.parse(
		fs.readFileSync(path.resolve(__dirname, '../../../../examples/roster-review.json'), 'utf8'),
	) as { nodes: INode[] };
	const placeholder = (syncOptions('assignment').options as INodeProperties[]).find(
		(o) => o.name === 'approvedPlan',
	)!.placeholder!;
	const named = /\$\('([^']+)'\)/.exec(placeholder)?.[1];
	const node = review.nodes.find((candidate) => candidate.name === named);
	expect((node?.parameters.options as INodeParameters | undefined)?.dryRun).toBe(true);
});

test('the other operations keep their subtitle', () => {
	expect(subtitleOf(nodeWith({ resource: 'assignment', operation: 'assign' }))).toBe(
		'Assign a course',
	);
	// An option left over from a sync does not change another operation's subtitle.
	expect(
		subtitleOf(nodeWith({ resource: 'course', operation: 'get', options: { dryRun: true } })),
	).toBe('Get a course');
});
