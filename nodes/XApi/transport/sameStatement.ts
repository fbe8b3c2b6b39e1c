import { createHash } from 'crypto';

import { isPlainObject } from '../../shared/form/input';

// xAPI-Data 2.3.1 comparison: what a store may assign or rewrite, `display`, definitions, timestamp
// form, member order, e-mail domain and UUID case, durations beyond 0.01 s are ignored. IRIs compare
// as written (no RFC 3987 normalization), extensions as JSON values.
type JsonObject = Record<string, unknown>;

const contentOf = (statement: JsonObject) => canonical(normalizeStatement(statement));
const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

export function isSameStatement(sent: unknown, stored: unknown): boolean {
	if (!isPlainObject(sent) || !isPlainObject(stored)) return false;
	// A store fills in the timestamp when none was sent.
	const theirs = sent.timestamp === undefined ? { ...stored, timestamp: undefined } : stored;
	return contentOf(sent) === contentOf(theirs);
}

/** Equal for the same statement; the timestamp is kept: one sent without is not one sent with. */
export function contentDigest(statement: JsonObject): string {
	return createHash('sha256').update(contentOf(statement)).digest('hex').slice(0, 32);
}

function normalizeStatement(statement: JsonObject): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(statement)) {
		if (['stored', 'authority', 'version', 'attachments'].includes(key)) continue;
		if (key === 'id') out.id = lowerCase(value);
		else if (key === 'actor') out.actor = normalizeActor(value);
		else if (key === 'verb') out.verb = isPlainObject(value) ? { id: value.id } : value;
		else if (key === 'object') out.object = normalizeObject(value);
		else if (key === 'result' && isPlainObject(value) && typeof value.duration === 'string')
			out.result = { ...value, duration: truncateDuration(value.duration) };
		else if (key === 'context') out.context = normalizeContext(value);
		else if (key === 'timestamp') out.timestamp = instant(value);
		else if (key === 'objectType' && value === 'Activity') continue;
		else out[key] = value;
	}
	return out;
}

function normalizeActor(actor: unknown): unknown {
	if (!isPlainObject(actor)) return actor;
	const out: JsonObject = { ...actor };
	if (out.objectType === 'Agent') delete out.objectType;
	if (typeof out.mbox === 'string') out.mbox = lowerCaseDomain(out.mbox);
	if (Array.isArray(out.member)) {
		out.member = out.member
			.map(normalizeActor)
			.sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1));
	}
	return out;
}

function normalizeObject(object: unknown): unknown {
	if (!isPlainObject(object)) return object;
	switch (object.objectType) {
		case undefined:
		case 'Activity':
			return { id: object.id };
		case 'StatementRef':
			return { objectType: 'StatementRef', id: lowerCase(object.id) };
		case 'SubStatement':
			return normalizeStatement(object);
		default:
			return { ...(normalizeActor(object) as JsonObject), objectType: object.objectType };
	}
}

function normalizeContext(context: unknown): unknown {
	if (!isPlainObject(context)) return context;
	const out: JsonObject = { ...context };
	out.registration = lowerCase(out.registration);
	if (out.instructor !== undefined) out.instructor = normalizeActor(out.instructor);
	if (out.team !== undefined) out.team = normalizeActor(out.team);
	if (isPlainObject(out.statement)) out.statement = normalizeObject(out.statement);
	if (isPlainObject(out.contextActivities)) {
		// A single activity and a list of one are the same (xAPI-Data 2.4.6.2).
		const lists = Object.entries(out.contextActivities).map(([kind, value]) => [
			kind,
			(Array.isArray(value) ? value : [value]).map(normalizeObject),
		]);
		out.contextActivities = Object.fromEntries(lists) as JsonObject;
	}
	return out;
}

/** Stores keep 0.01 s; the platform's documents write `P16559.14S` without the "T". */
function truncateDuration(duration: string): string {
	const withT = duration.replace(/^P(?=\d+(?:[.,]\d+)?S$)/, 'PT');
	return withT.replace(/(\d+)\.(\d+)S$/, (_match, whole: string, fraction: string) => {
		const kept = fraction.slice(0, 2).replace(/0+$/, '');
		return kept ? `${whole}.${kept}S` : `${whole}S`;
	});
}

function instant(value: unknown): unknown {
	const ms = typeof value === 'string' ? Date.parse(value) : NaN;
	return Number.isNaN(ms) ? value : ms;
}

function lowerCaseDomain(mbox: string): string {
	const at = mbox.lastIndexOf('@');
	return at < 0 ? mbox : `${mbox.slice(0, at)}${mbox.slice(at).toLowerCase()}`;
}

function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((entry) => canonical(entry)).join(',')}]`;
	if (isPlainObject(value)) {
		const keys = Object.keys(value)
			.filter((key) => value[key] !== undefined)
			.sort();
		return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
