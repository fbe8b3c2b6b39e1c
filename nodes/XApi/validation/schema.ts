/**
 * The building blocks of the statement schemas: plain objects that check a value and record what
 * is wrong with it, with no validation library underneath.
 *
 * The right shape of an xAPI object often depends on the data (an actor is an Agent or a Group
 * depending on "objectType"), and some rules span several properties. General-purpose schema
 * libraries report vague errors for such unions, stop before cross-property rules when a part is
 * wrong, and cost several microseconds per refinement, which is too slow for 50,000 statements a
 * second. These blocks say exactly what the specification says, report every problem of a
 * statement at once, and allocate nothing for a value that is fine.
 *
 * A schema never changes or copies what it checks: a value is valid when checking it finds nothing.
 */

export type PathSegment = string | number;

/** The kinds of value a property can require, as named in `describe.ts`. */
export type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object';

/** Something wrong found in a statement; `issues.ts` turns findings into messages. */
export type Finding =
	| { code: 'custom'; path: PathSegment[]; message: string }
	| { code: 'invalid_type'; path: PathSegment[]; expected: Kind; value: unknown }
	| { code: 'invalid_literal'; path: PathSegment[]; expected: string; value: unknown }
	| { code: 'unrecognized_keys'; path: PathSegment[]; keys: string[] };

/** A problem found by a check; `path` is relative to the checked value. */
export interface Problem {
	message: string;
	path?: PathSegment[];
}

/** Checks return undefined when all is well, so the common case allocates nothing. */
export type Problems = Problem[] | undefined;

export function problem(message: string, path?: PathSegment[]): Problem[] {
	return [{ message, path }];
}

/** Appends a problem to a list that may not exist yet. */
export function addTo(problems: Problems, message: string, path?: PathSegment[]): Problem[] {
	const list = problems ?? [];
	list.push({ message, path });
	return list;
}

/**
 * One run of a check over a statement: where it is (a stack of property names and list
 * positions, copied only when something is found) and what it has found.
 */
export class Walk {
	readonly path: PathSegment[] = [];

	readonly findings: Finding[] = [];

	/** The current path, extended by `relative`, as a new array. */
	pathTo(relative?: PathSegment[]): PathSegment[] {
		return relative === undefined ? this.path.slice() : this.path.concat(relative);
	}

	report(problems: Problem[]): void {
		for (const { message, path } of problems) {
			this.findings.push({ code: 'custom', path: this.pathTo(path), message });
		}
	}

	wrongType(expected: Kind, value: unknown): void {
		this.findings.push({ code: 'invalid_type', path: this.pathTo(), expected, value });
	}

	/** Checks `value`, found under `segment` of the current value. */
	visit(schema: Schema, value: unknown, segment: PathSegment): void {
		this.path.push(segment);
		schema.check(value, this);
		this.path.pop();
	}
}

export abstract class Schema {
	/** Checks `value`, found at `walk.path`, and records in `walk` whatever is wrong with it. */
	abstract check(value: unknown, walk: Walk): void;

	/** This schema, or no value at all (null is a value, and is checked). */
	optional(): Schema {
		return new OptionalSchema(this);
	}
}

export class OptionalSchema extends Schema {
	constructor(private readonly inner: Schema) {
		super();
	}

	check(value: unknown, walk: Walk): void {
		if (value !== undefined) this.inner.check(value, walk);
	}
}

/** Checks `value` from scratch: the findings, none when it is valid. */
export function findingsOf(schema: Schema, value: unknown): Finding[] {
	const walk = new Walk();
	schema.check(value, walk);
	return walk.findings;
}

/** A value checked by a plain function. */
class CheckedSchema extends Schema {
	constructor(private readonly findProblems: (value: unknown) => Problems) {
		super();
	}

	check(value: unknown, walk: Walk): void {
		const problems = this.findProblems(value);
		if (problems !== undefined) walk.report(problems);
	}
}

/** A schema picked from the data itself, or the problems that prevent picking one. */
class ChosenSchema extends Schema {
	constructor(private readonly choose: (value: unknown) => Schema | Problem[]) {
		super();
	}

	check(value: unknown, walk: Walk): void {
		const choice = this.choose(value);
		if (Array.isArray(choice)) walk.report(choice);
		else choice.check(value, walk);
	}
}

/**
 * A schema plus rules that span its properties. The rules see the value whether or not the
 * schema accepts it (so every problem is reported at once), and must check the types they use.
 */
class RuledSchema extends Schema {
	constructor(
		private readonly schema: Schema,
		private readonly rules: (value: unknown) => Problems,
	) {
		super();
	}

	check(value: unknown, walk: Walk): void {
		const problems = this.rules(value);
		// Reported first, so that problems with the whole object come before those of its parts.
		if (problems !== undefined) walk.report(problems);
		this.schema.check(value, walk);
	}
}

class StringSchema extends Schema {
	check(value: unknown, walk: Walk): void {
		if (typeof value !== 'string') walk.wrongType('string', value);
	}
}

class BooleanSchema extends Schema {
	check(value: unknown, walk: Walk): void {
		if (typeof value !== 'boolean') walk.wrongType('boolean', value);
	}
}

class NumberSchema extends Schema {
	check(value: unknown, walk: Walk): void {
		// NaN is refused; infinities are accepted.
		if (typeof value !== 'number' || Number.isNaN(value)) walk.wrongType('number', value);
	}
}

class LiteralSchema extends Schema {
	constructor(private readonly value: string) {
		super();
	}

	check(value: unknown, walk: Walk): void {
		if (value !== this.value) {
			walk.findings.push({
				code: 'invalid_literal',
				path: walk.pathTo(),
				expected: this.value,
				value,
			});
		}
	}
}

class ArraySchema extends Schema {
	constructor(private readonly item: Schema) {
		super();
	}

	check(value: unknown, walk: Walk): void {
		if (!Array.isArray(value)) {
			walk.wrongType('array', value);
			return;
		}
		for (let index = 0; index < value.length; index++) {
			walk.visit(this.item, value[index], index);
		}
	}
}

export function checked(findProblems: (value: unknown) => Problems): Schema {
	return new CheckedSchema(findProblems);
}

export function chosen(choose: (value: unknown) => Schema | Problem[]): Schema {
	return new ChosenSchema(choose);
}

export function withRules(schema: Schema, rules: (value: unknown) => Problems): Schema {
	return new RuledSchema(schema, rules);
}

/** Any text. */
export const text: Schema = new StringSchema();

/** true or false. */
export const trueOrFalse: Schema = new BooleanSchema();

/** Any number but NaN. */
export const number: Schema = new NumberSchema();

/** Exactly this text. */
export function literal(value: string): Schema {
	return new LiteralSchema(value);
}

/** A list whose items all fit `item`. */
export function arrayOf(item: Schema): Schema {
	return new ArraySchema(item);
}
