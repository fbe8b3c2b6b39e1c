const MASK = '***';

/** Values that must never be shown, in every spelling a URL or body could carry them. */
function spellings(secret: string): string[] {
	const encoded = encodeURIComponent(secret);
	const plus = encoded.replace(/%20/g, '+');
	return [...new Set([secret, encoded, plus])];
}

const SENSITIVE_QUERY = /([?&](?:client_secret|access_token|token|password)=)[^&#\s"']*/gi;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

/** Masks the given secrets, sensitive query parameters and bearer tokens in a text. */
export function redactText(text: string, secrets: readonly unknown[] = []): string {
	let out = text.replace(SENSITIVE_QUERY, `$1${MASK}`).replace(BEARER, `$1${MASK}`);
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret.length < 3) continue;
		for (const form of spellings(secret)) out = out.split(form).join(MASK);
	}
	return out;
}

/** Deep copy of a JSON-like value with every string redacted. */
export function redactValue<T>(value: T, secrets: readonly unknown[] = [], depth = 0): T {
	if (typeof value === 'string') return redactText(value, secrets) as T;
	if (depth > 8 || value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1)) as T;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
		out[key] =
			/authorization|secret|password|token/i.test(key) && typeof v === 'string'
				? MASK
				: redactValue(v, secrets, depth + 1);
	}
	return out as T;
}
