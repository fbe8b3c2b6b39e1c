/**
 * Three small zod types for what plain zod schemas cannot say well or fast enough.
 *
 * The right shape of an xAPI object often depends on the data (an actor is an Agent or a Group
 * depending on "objectType"), and some rules span several properties. zod's unions report vague
 * errors, and its refinements (`refine`, `superRefine`) cost about 3 µs per value, which is too slow
 * for 50,000 statements a second. These types plug into zod's own parsing instead: paths, optional
 * properties and error collection behave exactly as for built-in schemas. They are meant for
 * synchronous parsing (`safeParse`), which is all the validator uses.
 */
import { addIssueToContext, INVALID, OK, z } from 'zod';

// Read once: each access to a re-exported zod binding goes through a getter.
const invalid = INVALID;
const ok = OK;
const addIssue = addIssueToContext;

export type PathSegment = string | number;

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

function report(schema: z.ZodTypeAny, input: z.ParseInput, problems: Problem[]): void {
	const ctx = schema._getOrReturnCtx(input);
	for (const { message, path } of problems) {
		addIssue(ctx, { code: z.ZodIssueCode.custom, message, path });
	}
}

/** A value checked by a plain function; the caller vouches that accepted values are a `T`. */
class CheckedSchema<T> extends z.ZodType<T, z.ZodTypeDef, unknown> {
	constructor(private readonly findProblems: (value: unknown) => Problems) {
		super({});
	}

	_parse(input: z.ParseInput): z.ParseReturnType<T> {
		const problems = this.findProblems(input.data);
		if (problems === undefined) return ok(input.data as T);
		report(this, input, problems);
		return invalid;
	}
}

/** A schema picked from the data itself, or the problems that prevent picking one; the caller vouches for `T`. */
class ChosenSchema<T> extends z.ZodType<T, z.ZodTypeDef, unknown> {
	constructor(private readonly choose: (value: unknown) => z.ZodTypeAny | Problem[]) {
		super({});
	}

	_parse(input: z.ParseInput): z.ParseReturnType<T> {
		const choice = this.choose(input.data);
		if (!Array.isArray(choice)) return choice._parse(input) as z.ParseReturnType<T>;
		report(this, input, choice);
		return invalid;
	}
}

/**
 * A schema plus rules that span its properties. The rules see the raw input whether or not the
 * schema accepted it (so every problem is reported at once), and must check the types they use.
 */
class RuledSchema<T> extends z.ZodType<T, z.ZodTypeDef, unknown> {
	constructor(
		private readonly schema: z.ZodType<T, z.ZodTypeDef, unknown>,
		private readonly rules: (value: unknown) => Problems,
	) {
		super({});
	}

	_parse(input: z.ParseInput): z.ParseReturnType<T> {
		const problems = this.rules(input.data);
		if (problems === undefined) return this.schema._parse(input);
		// Reported first, so that problems with the whole object come before those of its parts.
		report(this, input, problems);
		this.schema._parse(input);
		return invalid;
	}
}

export function checked<T>(
	findProblems: (value: unknown) => Problems,
): z.ZodType<T, z.ZodTypeDef, unknown> {
	return new CheckedSchema<T>(findProblems);
}

export function chosen<T>(
	choose: (value: unknown) => z.ZodTypeAny | Problem[],
): z.ZodType<T, z.ZodTypeDef, unknown> {
	return new ChosenSchema<T>(choose);
}

export function withRules<T>(
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
	rules: (value: unknown) => Problems,
): z.ZodType<T, z.ZodTypeDef, unknown> {
	return new RuledSchema<T>(schema, rules);
}
