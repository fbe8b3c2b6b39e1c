const MASK = '***';

/** Shorter values are too likely to be ordinary text to mask everywhere. */
const MIN_SECRET_LENGTH = 4;

const SENSITIVE_QUERY = /([?&](?:client_secret|access_token|token|password)=)[^&#\s"']*/gi;
const AUTH_SCHEME = /\b((?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{4,}/gi;
const SENSITIVE_KEY = /authorization|secret|password|token/i;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Plain, URL-, query- (RFC 3986) and form-encoded, JSON-escaped and base64 spellings. */
function spellingsOf(secret: string): string[] {
	const forms = new Set<string>();
	const add = (value: string) => {
		const trimmed = value.trim();
		if (trimmed.length < MIN_SECRET_LENGTH) return;
		const url = new URLSearchParams({ s: trimmed }).toString().slice(2).replace(/\+/g, '%20');
		const query = url.replace(/%7E/g, '~').replace(/\*/g, '%2A');
		const uri = query.replace(/%(21|27|28|29|2A)/g, (_, hex: string) =>
			String.fromCharCode(parseInt(hex, 16)),
		);
		const base64 = Buffer.from(trimmed, 'utf8').toString('base64');
		for (const form of [
			trimmed,
			JSON.stringify(trimmed).slice(1, -1),
			...[uri, query, url].flatMap((encoded) => [encoded, encoded.replace(/%20/g, '+')]),
			base64,
			base64.replace(/=+$/, ''),
			base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
		]) {
			if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
		}
	};
	add(secret);
	// A header value such as "Basic abc…": its credential part alone is secret too.
	const scheme = /^\s*[A-Za-z]+\s+(\S.*)$/.exec(secret);
	if (scheme) add(scheme[1]);
	return [...forms];
}

/** Also masks sensitive query parameters and any `Bearer`/`Basic` credential. */
export class Redactor {
	private readonly secrets = new Set<string>();

	private pattern: RegExp | undefined;

	/** The same alternation without the global flag: `test` keeps no position between calls. */
	private probe: RegExp | undefined;

	constructor(secrets: Iterable<unknown> = []) {
		this.add(...secrets);
	}

	add(...values: unknown[]): this {
		for (const value of values) {
			if (typeof value !== 'string' || value.trim().length < MIN_SECRET_LENGTH) continue;
			if (this.secrets.has(value)) continue;
			this.secrets.add(value);
			this.pattern = undefined;
			this.probe = undefined;
		}
		return this;
	}

	copy(): Redactor {
		return new Redactor(this.secrets);
	}

	forgetAll(): void {
		this.secrets.clear();
		this.pattern = undefined;
		this.probe = undefined;
	}

	text(text: string): string {
		let out = text.replace(SENSITIVE_QUERY, `$1${MASK}`).replace(AUTH_SCHEME, `$1${MASK}`);
		const pattern = this.secretPattern();
		if (pattern) out = out.replace(pattern, MASK);
		return out;
	}

	value<T>(value: T, depth = 0): T {
		if (typeof value === 'string') return this.text(value) as T;
		if (depth > 8 || value === null || typeof value !== 'object') return value;
		if (Array.isArray(value)) return value.map((v) => this.value(v, depth + 1)) as T;
		const out: Record<string, unknown> = {};
		for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
			out[key] = SENSITIVE_KEY.test(key) && typeof v === 'string' ? MASK : this.value(v, depth + 1);
		}
		return out as T;
	}

	/** Output is the user's data: only known secrets are masked; unchanged parts are not copied. */
	output<T>(value: T): T {
		const pattern = this.secretPattern();
		if (!pattern) return value;
		this.probe ??= new RegExp(pattern.source, 'i');
		return maskStrings(value, this.probe, pattern, 0);
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
		const forms = [...this.secrets].flatMap(spellingsOf).sort((a, b) => b.length - a.length);
		this.pattern = forms.length ? new RegExp(forms.map(escapeRegExp).join('|'), 'gi') : undefined;
		return this.pattern;
	}
}

/** Deeper than any output the nodes let through (answers nested deeper are refused). */
const MAX_OUTPUT_DEPTH = 256;

function maskStrings<T>(value: T, probe: RegExp, pattern: RegExp, depth: number): T {
	if (typeof value === 'string') {
		return (probe.test(value) ? value.replace(pattern, MASK) : value) as T;
	}
	if (value === null || typeof value !== 'object' || depth > MAX_OUTPUT_DEPTH) return value;
	if (Array.isArray(value)) {
		let copy: unknown[] | undefined;
		value.forEach((entry: unknown, index) => {
			const masked = maskStrings(entry, probe, pattern, depth + 1);
			if (masked !== entry) (copy ??= [...value])[index] = masked;
		});
		return (copy ?? value) as T;
	}
	let copy: Record<string, unknown> | undefined;
	for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
		const masked = maskStrings(entry, probe, pattern, depth + 1);
		if (masked !== entry) (copy ??= { ...(value as Record<string, unknown>) })[key] = masked;
	}
	return (copy ?? value) as T;
}

export function redactText(text: string, secrets: readonly unknown[] = []): string {
	return new Redactor(secrets).text(text);
}

export function redactValue<T>(value: T, secrets: readonly unknown[] = []): T {
	return new Redactor(secrets).value(value);
}
