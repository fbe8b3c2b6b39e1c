const MASK = '***';

/** Shorter values are too likely to be ordinary text to mask everywhere. */
const MIN_SECRET_LENGTH = 4;

const SENSITIVE_QUERY = /([?&](?:client_secret|access_token|token|password)=)[^&#\s"']*/gi;
const AUTH_SCHEME = /\b((?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{4,}/gi;
const SENSITIVE_KEY = /authorization|secret|password|token/i;

/** Plain, URL-, query- (RFC 3986) and form-encoded, JSON-escaped and base64 spellings. */
function spellingsOf(secret: string): string[] {
	// A header value such as "Basic abc…": its credential part alone is secret too.
	const scheme = /^\s*[A-Za-z]+\s+(\S.*)$/.exec(secret);
	return [secret, scheme?.[1] ?? ''].flatMap((value) => {
		const trimmed = value.trim();
		if (trimmed.length < MIN_SECRET_LENGTH) return [];
		const url = new URLSearchParams({ s: trimmed }).toString().slice(2).replace(/\+/g, '%20');
		const query = url.replace(/%7E/g, '~').replace(/\*/g, '%2A');
		const uri = query.replace(/%(21|27|28|29|2A)/g, (_, hex: string) =>
			String.fromCharCode(parseInt(hex, 16)),
		);
		const base64 = Buffer.from(trimmed, 'utf8').toString('base64');
		return [
			trimmed,
			JSON.stringify(trimmed).slice(1, -1),
			...[uri, query, url].flatMap((encoded) => [encoded, encoded.replace(/%20/g, '+')]),
			base64,
			base64.replace(/=+$/, ''),
			base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
		].filter((form) => form.length >= MIN_SECRET_LENGTH);
	});
}

/** Also masks sensitive query parameters and any `Bearer`/`Basic` credential. */
export class Redactor {
	private readonly secrets = new Set<string>();

	private pattern: RegExp | undefined;

	constructor(secrets: Iterable<unknown> = []) {
		this.add(...secrets);
	}

	copy(): Redactor {
		return new Redactor(this.secrets);
	}

	add(...values: unknown[]): this {
		for (const value of values) {
			if (typeof value !== 'string' || value.trim().length < MIN_SECRET_LENGTH) continue;
			if (!this.secrets.has(value)) this.pattern = undefined;
			this.secrets.add(value);
		}
		return this;
	}

	forgetAll(): void {
		this.secrets.clear();
		this.pattern = undefined;
	}

	text(text: string): string {
		const out = text.replace(SENSITIVE_QUERY, `$1${MASK}`).replace(AUTH_SCHEME, `$1${MASK}`);
		const pattern = this.secretPattern();
		return pattern ? out.replace(pattern, MASK) : out;
	}

	value<T>(value: T): T {
		return masked(value, (text) => this.text(text), 8, SENSITIVE_KEY);
	}

	/** Output is the user's data: only known secrets are masked. */
	output<T>(value: T): T {
		const pattern = this.secretPattern();
		if (!pattern) return value;
		return masked(value, (text) => text.replace(pattern, MASK), MAX_OUTPUT_DEPTH);
	}

	error<E>(error: E): E {
		let current: unknown = error;
		for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
			const e = current as Record<string, unknown>;
			for (const key of ['message', 'description', 'stack']) {
				if (typeof e[key] === 'string') e[key] = this.text(e[key] as string);
			}
			if (Array.isArray(e.messages)) e.messages = e.messages.map((m) => this.value(m));
			if (e.context && typeof e.context === 'object') e.context = this.value(e.context);
			current = e.cause;
			if (current && typeof current !== 'object') e.cause = this.value(current);
		}
		return error;
	}

	private secretPattern(): RegExp | undefined {
		if (this.pattern || this.secrets.size === 0) return this.pattern;
		const spellings = new Set([...this.secrets].flatMap(spellingsOf));
		const forms = [...spellings].sort((a, b) => b.length - a.length);
		const escaped = forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
		this.pattern = forms.length ? new RegExp(escaped.join('|'), 'gi') : undefined;
		return this.pattern;
	}
}

/** Deeper than any output the nodes let through (answers nested deeper are refused). */
const MAX_OUTPUT_DEPTH = 256;

/** Unchanged parts are not copied. */
function masked<T>(
	value: T,
	mask: (text: string) => string,
	maxDepth: number,
	keys?: RegExp,
	depth = 0,
): T {
	if (typeof value === 'string') return mask(value) as T;
	if (value === null || typeof value !== 'object' || depth > maxDepth) return value;
	let copy: Record<string, unknown> | undefined;
	for (const [key, entry] of Object.entries(value)) {
		const out =
			keys?.test(key) && typeof entry === 'string'
				? MASK
				: masked(entry, mask, maxDepth, keys, depth + 1);
		if (out === entry) continue;
		copy ??= (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
		copy[key] = out;
	}
	return (copy ?? value) as T;
}

/** Per client key for the process, so every secret and token issued for it is masked anywhere. */
const clientMasks = new Map<string, Redactor>();

/** The id as the token request sends it (trimmed): tokens, masks and throttle share one entry. */
export function clientKey(baseUrl: string, clientId: string): string {
	return `${baseUrl.trim()}|${clientId.trim()}`;
}

/** Live, for masking output items: its pattern is rebuilt only when a token is issued. */
export function liveClientRedactor(key: string, ...current: unknown[]): Redactor {
	const masks = clientMasks.get(key) ?? new Redactor();
	clientMasks.set(key, masks);
	return masks.add(...current);
}

export function clientRedactor(key: string, ...current: unknown[]): Redactor {
	return liveClientRedactor(key)
		.copy()
		.add(...current);
}
