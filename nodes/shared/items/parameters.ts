import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

type GetNodeParameter = IExecuteFunctions['getNodeParameter'];
type ParameterOptions = Parameters<GetNodeParameter>[3];

/** `={{ $json.name }}`: an expression that only reads one field of the item. */
const ITEM_FIELD = /^=\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}$/;

/**
 * n8n's functions for one execution, with a `getNodeParameter` that skips work whose answer is
 * the same for every item or needs no expression engine:
 * - a parameter holding no expression is read from n8n once, then reused for every item;
 * - a mapping that only reads a field of the item (`={{ $json.name }}`, the editor's
 *   drag-and-drop), when that field holds a string, number or boolean, is read from the item:
 *   the value n8n's evaluator returns for it, without the data proxy it builds per expression.
 * Anything else (other expressions, missing or non-plain values, nested names) goes to n8n.
 * Safe for the package's own forms only: they declare no `validateType` and no resource-locator
 * mode with an `extractValue` (test/unit/shared/parameters.test.ts checks both), so n8n's
 * validation and value extraction change nothing on these paths.
 */
export function itemParameters(fns: IExecuteFunctions): IExecuteFunctions {
	const parameters: INodeParameters = fns.getNode().parameters;
	const fixed = new Map<string, unknown>();
	let items: ReturnType<IExecuteFunctions['getInputData']> | undefined;
	const getNodeParameter = (
		name: string,
		itemIndex: number,
		fallbackValue?: unknown,
		options?: ParameterOptions,
	): unknown => {
		const viaN8n = () => fns.getNodeParameter(name, itemIndex, fallbackValue, options);
		if (name.includes('.') || options?.rawExpressions || options?.ensureType) return viaN8n();
		const raw = parameters[name];
		const field = itemFieldOf(raw, options);
		if (field !== undefined) {
			items ??= fns.getInputData();
			const value = items[itemIndex]?.json?.[field];
			const plain = typeof value === 'string' || typeof value === 'number';
			return plain || typeof value === 'boolean' ? value : viaN8n();
		}
		if (holdsExpression(raw)) return viaN8n();
		const key = `${name}\u0000${JSON.stringify(fallbackValue) ?? ''}\u0000${options?.extractValue === true}`;
		if (!fixed.has(key)) fixed.set(key, viaN8n());
		const value = fixed.get(key);
		// Each item gets its own copy, as from n8n: a change one item makes cannot reach the next.
		return typeof value === 'object' && value !== null ? structuredClone(value) : value;
	};
	return Object.create(fns, {
		getNodeParameter: { value: getNodeParameter },
	}) as IExecuteFunctions;
}

/** The item field an expression reads, if that is all it does (also inside a resource locator). */
function itemFieldOf(raw: unknown, options: ParameterOptions): string | undefined {
	if (typeof raw === 'string') return ITEM_FIELD.exec(raw)?.[1];
	// A resource locator gives its value only when asked to extract it.
	if (options?.extractValue && isLocator(raw) && typeof raw.value === 'string') {
		return ITEM_FIELD.exec(raw.value)?.[1];
	}
	return undefined;
}

function isLocator(raw: unknown): raw is { __rl: true; value: unknown } {
	return typeof raw === 'object' && raw !== null && (raw as { __rl?: unknown }).__rl === true;
}

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}
