/**
 * `strictObject(shape)`: an object with the properties of `shape`, required unless their schema is
 * `.optional()`, and no other property. It visits only the properties present (xAPI objects leave
 * most optional properties out), then the required ones that are missing; names it does not know
 * are reported together, after the problems of the known properties.
 */
import { OptionalSchema, Schema, type Walk } from './schema';

export type Shape = Record<string, Schema>;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/**
 * Objects that are not plain (from another realm, or made by a class), and not lists, dates,
 * maps, sets or promises either: checked property by property in the order of the shape.
 */
function isOtherObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	if (value instanceof Date || value instanceof Map || value instanceof Set) return false;
	const { then, catch: onError } = value as { then?: unknown; catch?: unknown };
	return !(typeof then === 'function' && typeof onError === 'function');
}

export class StrictObject<S extends Shape> extends Schema {
	private readonly properties: Map<string, Schema>;

	private readonly keys: string[];

	private readonly requiredKeys: string[];

	constructor(readonly shape: S) {
		super();
		this.properties = new Map(Object.entries(shape));
		this.keys = Object.keys(shape);
		this.requiredKeys = this.keys.filter((key) => !(shape[key] instanceof OptionalSchema));
	}

	check(value: unknown, walk: Walk): void {
		let unknownKeys: string[] | undefined;
		if (isPlainRecord(value)) {
			for (const key in value) {
				const property = this.properties.get(key);
				if (property === undefined) (unknownKeys ??= []).push(key);
				else walk.visit(property, value[key], key);
			}
			for (const key of this.requiredKeys) {
				if (!(key in value)) walk.visit(this.properties.get(key) as Schema, undefined, key);
			}
		} else if (isOtherObject(value)) {
			for (const key of this.keys) walk.visit(this.properties.get(key) as Schema, value[key], key);
			for (const key in value) if (!this.properties.has(key)) (unknownKeys ??= []).push(key);
		} else {
			walk.wrongType('object', value);
			return;
		}
		if (unknownKeys !== undefined) {
			walk.findings.push({ code: 'unrecognized_keys', path: walk.pathTo(), keys: unknownKeys });
		}
	}
}

export function strictObject<S extends Shape>(shape: S): StrictObject<S> {
	return new StrictObject(shape);
}
