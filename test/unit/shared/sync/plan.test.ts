import { approvalMismatch, planIdOf } from '../../../../nodes/shared/sync/plan';
import type { PlanShape, ShapeOption } from '../../../../nodes/shared/sync/plan';

const SHAPE: PlanShape = {
	removeMissing: true,
	removeAfterDays: 0,
	maxRemoveShare: 10,
	memoryKey: '',
};
const WORDS = { remove: 'withdraw', one: 'assignment', many: 'assignments' };
const NAMES: Record<ShapeOption, string> = {
	removeMissing: 'Withdraw Missing',
	removeAfterDays: 'Withdraw After Days',
	maxRemoveShare: 'Max Withdraw Share',
	memoryKey: 'Memory Key',
};
const mismatch = (
	approved: string,
	keys: string[],
	shape = SHAPE,
	spent: Array<{ planId: string; at: number }> = [],
) =>
	approvalMismatch(
		approved,
		{ planId: planIdOf('client', keys, shape), removals: keys.length, shape },
		spent,
		WORDS,
		(option) => NAMES[option],
	);

describe('plan IDs', () => {
	test('16 characters; the same removals and shape give the same ID, whatever their order', () => {
		const id = planIdOf('client', ['a', 'b', 'c'], SHAPE);
		expect(id).toMatch(/^[\w-]{16}$/);
		expect(planIdOf('client', ['c', 'a', 'b'], { ...SHAPE })).toBe(id);
		expect(planIdOf('other client', ['a', 'b', 'c'], SHAPE)).not.toBe(id);
		expect(planIdOf('client', ['a', 'b'], SHAPE)).not.toBe(id);
		expect(planIdOf('client', ['a', 'b', 'c'], { ...SHAPE, lastSpent: id })).not.toBe(id);
		for (const shape of [
			{ removeMissing: false },
			{ removeAfterDays: 2 },
			{ maxRemoveShare: 20 },
			{ memoryKey: 'k' },
		]) {
			expect(planIdOf('client', ['a', 'b', 'c'], { ...SHAPE, ...shape })).not.toBe(id);
		}
	});

	test('a refusal reads from the approved ID how many removals it held and which options differ', () => {
		const approved = planIdOf('client', ['a', 'b'], { ...SHAPE, removeAfterDays: 2 });
		expect(mismatch(approved, ['a', 'b', 'c', 'd', 'e']).message).toBe(
			`Approved Plan ${approved} does not match this run's plan: this run would withdraw 3 assignments more than the approved plan (5, not 2), and it was planned with other options than this node's: Withdraw After Days`,
		);
		expect(mismatch(planIdOf('client', ['a', 'b'], SHAPE), ['a']).message).toMatch(
			/withdraw 1 assignment fewer than the approved plan \(1, not 2\)$/,
		);
		expect(mismatch(planIdOf('client', ['a', 'b'], SHAPE), ['a', 'c']).message).toMatch(
			/withdraw the same number \(2\) as the approved plan, but not the same ones$/,
		);
	});

	test('an ID that is not a plan ID, and one already carried out, are told apart', () => {
		expect(mismatch('from the other dry run', ['a']).message).toBe(
			'Approved Plan "from the other dry run" is not a plan ID',
		);
		const id = planIdOf('client', ['a', 'b'], SHAPE);
		// One character changed: its check character no longer fits.
		const typo = (id[0] === 'A' ? 'B' : 'A') + id.slice(1);
		expect(mismatch(typo, ['a']).message).toMatch(/is not a plan ID$/);
		const used = mismatch(id, ['a', 'b'], { ...SHAPE, lastSpent: id }, [
			{ planId: id, at: Date.UTC(2026, 10, 1) },
		]);
		expect(used.message).toBe(
			`Approved Plan ${id} was already carried out, by a run on 2026-11-01T00:00:00.000Z`,
		);
		expect(used.advice).toMatch(/^An approval goes ahead once/);
	});
});
