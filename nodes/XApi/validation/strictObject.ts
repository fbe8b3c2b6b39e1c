/**
 * `strictObject(shape)` accepts exactly what `z.object(shape).strict()` accepts and reports the same
 * issues, at about twice the speed: it visits only the properties present (xAPI objects leave most
 * optional properties out), builds property paths only when a problem needs one, and returns the
 * input object instead of copying it. Anything unusual (not a plain object, asynchronous parsing)
 * is handed to the equivalent `z.object(shape).strict()`.
 */
import { addIssueToContext, DIRTY, INVALID, OK, z } from 'zod';

// Read once: each access to a re-exported zod binding goes through a getter.
const invalid = INVALID;
const ok = OK;
const dirty = DIRTY;
const addIssue = addIssueToContext;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** The input of one property; its path is built on first use, as zod's own objects do. */
class PropertyInput implements z.ParseInput {
	private builtPath: z.ParsePath | undefined;

	constructor(
		readonly parent: z.ParseContext,
		readonly data: unknown,
		private readonly owner: z.ParseInput,
		private readonly key: string,
	) {}

	get path(): z.ParsePath {
		if (this.builtPath === undefined) this.builtPath = [...this.owner.path, this.key];
		return this.builtPath;
	}
}

type StrictOutput<Shape extends z.ZodRawShape> = z.objectOutputType<Shape, z.ZodTypeAny, 'strict'>;

export class StrictObject<Shape extends z.ZodRawShape> extends z.ZodType<
	StrictOutput<Shape>,
	z.ZodTypeDef,
	unknown
> {
	private readonly standard: z.ZodTypeAny;
	private readonly properties: Map<string, z.ZodTypeAny>;
	private readonly requiredKeys: string[];

	constructor(readonly shape: Shape) {
		super({});
		this.standard = z.object(shape).strict();
		this.properties = new Map(Object.entries(shape));
		this.requiredKeys = Object.keys(shape).filter((key) => !shape[key].isOptional());
	}

	_parse(input: z.ParseInput): z.ParseReturnType<StrictOutput<Shape>> {
		const data = input.data as unknown;
		if (!isPlainRecord(data) || input.parent.common.async) {
			return this.standard._parse(input) as z.ParseReturnType<StrictOutput<Shape>>;
		}
		let aborted = false;
		let dirtied = false;
		let unknownKeys: string[] | undefined;
		for (const key in data) {
			const property = this.properties.get(key);
			if (property === undefined) {
				(unknownKeys ??= []).push(key);
				continue;
			}
			const result = property._parse(
				new PropertyInput(input.parent, data[key], input, key),
			) as z.SyncParseReturnType;
			if (result.status === 'aborted') aborted = true;
			else if (result.status === 'dirty') dirtied = true;
		}
		for (const key of this.requiredKeys) {
			if (key in data) continue;
			const property = this.properties.get(key) as z.ZodTypeAny;
			const result = property._parse(
				new PropertyInput(input.parent, undefined, input, key),
			) as z.SyncParseReturnType;
			if (result.status === 'aborted') aborted = true;
		}
		if (unknownKeys !== undefined) {
			addIssue(this._getOrReturnCtx(input), {
				code: z.ZodIssueCode.unrecognized_keys,
				keys: unknownKeys,
			});
			dirtied = true;
		}
		const output = data as StrictOutput<Shape>;
		if (aborted) return invalid;
		return dirtied ? dirty(output) : ok(output);
	}
}

export function strictObject<Shape extends z.ZodRawShape>(shape: Shape): StrictObject<Shape> {
	return new StrictObject(shape);
}
