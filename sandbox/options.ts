/** The sandbox's knobs: defaults, validation, and reading them from CLI flags and env vars. */

import { THROTTLE_SHAPES, type ThrottleShape } from './throttle';

export interface SandboxOptions {
	port: number;
	host: string;
	/** Added before answering every API call (token endpoint included). */
	latencyMs: number;
	/** Uniform ± spread around latencyMs. */
	latencyJitterMs: number;
	/** Time from accepting a write until its transaction completes and the write applies. */
	transactionDelayMs: number;
	/**
	 * How many transactions the platform carries out per second ("as capacity allows"): writes
	 * queue, first in first out, and one completes every 1/rate s at the earliest, never sooner
	 * than transactionDelayMs after it was accepted. 0: no queue, each completes after the delay.
	 */
	transactionsPerSecond: number;
	/** Per client id; 0 turns the throttle off. */
	rateLimitPerMinute: number;
	/** How the platform counts its minute (see throttle.ts). */
	throttleShape: ThrottleShape;
	/** Whether a 429 carries Retry-After. */
	throttleRetryAfter: boolean;
	tokenLifetimeSec: number;
	/**
	 * The largest page GET courses.json serves; a larger `limit` is cut to it. The platform
	 * documents no maximum, so a client must page by what it gets back, not by what it asked for.
	 */
	maxPageSize: number;
	clientId: string;
	clientSecret: string;
	/** The push endpoint's OAuth 2 App (platform-docs 002). */
	lrsClientId: string;
	lrsClientSecret: string;
	/** The push endpoint's budget: statements per 10 seconds per organization; 0 turns it off. */
	lrsRatePer10Sec: number;
	/** Any email at one of these domains is a known user. */
	userDomains: string[];
	/** Seeds the fault and jitter random numbers, so a run can be repeated. */
	seed: number;
	/** Fractions (0..1) of authenticated API requests that get each fault. */
	fault429: number;
	fault5xx: number;
	faultDrop: number;
	faultExpireToken: number;
}

export type OptionName = keyof SandboxOptions;

type OptionKind =
	| 'port'
	| 'host'
	| 'milliseconds'
	| 'positive'
	| 'nonNegative'
	| 'text'
	| 'list'
	| 'integer'
	| 'count'
	| 'fraction'
	| 'shape'
	| 'boolean';

/** Each option's kind (what checkValue accepts) and default. */
const OPTIONS: { [Name in OptionName]: [OptionKind, SandboxOptions[Name]] } = {
	port: ['port', 0],
	host: ['host', '127.0.0.1'],
	latencyMs: ['milliseconds', 0],
	latencyJitterMs: ['milliseconds', 0],
	transactionDelayMs: ['milliseconds', 1000],
	transactionsPerSecond: ['nonNegative', 0],
	rateLimitPerMinute: ['nonNegative', 300],
	throttleShape: ['shape', 'sliding-60s+bucket-1s'],
	throttleRetryAfter: ['boolean', true],
	tokenLifetimeSec: ['positive', 3600],
	maxPageSize: ['count', 50],
	clientId: ['text', 'sandbox-client'],
	clientSecret: ['text', 'sandbox-secret'],
	lrsClientId: ['text', 'sandbox-lrs-client'],
	lrsClientSecret: ['text', 'sandbox-lrs-secret'],
	lrsRatePer10Sec: ['nonNegative', 10],
	userDomains: ['list', ['example.com', 'example.org']],
	seed: ['integer', 1],
	fault429: ['fraction', 0],
	fault5xx: ['fraction', 0],
	faultDrop: ['fraction', 0],
	faultExpireToken: ['fraction', 0],
};

export const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** The listening address cannot change once the server runs. */
export const STARTUP_ONLY_OPTIONS: readonly OptionName[] = ['port', 'host'];

export const DEFAULT_OPTIONS: Readonly<SandboxOptions> = Object.freeze(
	Object.fromEntries(
		OPTION_NAMES.map((name) => [name, OPTIONS[name][1]]),
	) as unknown as SandboxOptions,
);

export const CLI_DEFAULT_PORT = 8787;

export class OptionError extends Error {}

function isOptionName(name: string): name is OptionName {
	return Object.prototype.hasOwnProperty.call(OPTIONS, name);
}

/** `latencyMs` → `latency-ms`, `fault429` → `fault-429`. */
export function flagName(name: OptionName): string {
	return name.replace(/([a-z])([A-Z0-9])/g, '$1-$2').toLowerCase();
}

/** `latencyMs` → `SANDBOX_LATENCY_MS`. */
export function envName(name: OptionName): string {
	return 'SANDBOX_' + flagName(name).replace(/-/g, '_').toUpperCase();
}

function checkNumber(name: OptionName, value: unknown): number {
	const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof parsed !== 'number' || !Number.isFinite(parsed)) {
		throw new OptionError(`${name} must be a number, got ${JSON.stringify(value)}`);
	}
	return parsed;
}

function checkValue(name: OptionName, value: unknown): SandboxOptions[OptionName] {
	const kind = OPTIONS[name][0];
	switch (kind) {
		case 'host':
		case 'text': {
			if (typeof value !== 'string' || value.trim() === '') {
				throw new OptionError(`${name} must be a non-empty string`);
			}
			return value.trim();
		}
		case 'list': {
			const items = typeof value === 'string' ? value.split(',') : value;
			if (!Array.isArray(items) || items.some((item) => typeof item !== 'string')) {
				throw new OptionError(`${name} must be a list of strings (or one comma-separated string)`);
			}
			const cleaned = (items as string[]).map((item) => item.trim().toLowerCase()).filter(Boolean);
			if (cleaned.length === 0) throw new OptionError(`${name} must name at least one entry`);
			return cleaned;
		}
		case 'port': {
			const port = checkNumber(name, value);
			if (!Number.isInteger(port) || port < 0 || port > 65535) {
				throw new OptionError(`${name} must be an integer from 0 to 65535`);
			}
			return port;
		}
		case 'integer': {
			const integer = checkNumber(name, value);
			if (!Number.isInteger(integer)) throw new OptionError(`${name} must be an integer`);
			return integer;
		}
		case 'count': {
			const count = checkNumber(name, value);
			if (!Number.isInteger(count) || count < 1) {
				throw new OptionError(`${name} must be a whole number of at least 1`);
			}
			return count;
		}
		case 'milliseconds':
		case 'nonNegative': {
			const amount = checkNumber(name, value);
			if (amount < 0) throw new OptionError(`${name} must not be negative`);
			return amount;
		}
		case 'positive': {
			const amount = checkNumber(name, value);
			if (amount <= 0) throw new OptionError(`${name} must be greater than 0`);
			return amount;
		}
		case 'fraction': {
			const fraction = checkNumber(name, value);
			if (fraction < 0 || fraction > 1) throw new OptionError(`${name} must be between 0 and 1`);
			return fraction;
		}
		case 'shape': {
			const shape = THROTTLE_SHAPES.find((known) => known === value);
			if (!shape) throw new OptionError(`${name} must be one of ${THROTTLE_SHAPES.join(', ')}`);
			return shape;
		}
		case 'boolean': {
			if (value === true || value === 'true') return true;
			if (value === false || value === 'false') return false;
			throw new OptionError(`${name} must be true or false`);
		}
	}
}

/**
 * Checks names and values of a partial options object (from code, JSON or text).
 * Unknown names are errors, so a misspelt knob does not silently do nothing.
 */
export function checkOptions(input: Record<string, unknown>): Partial<SandboxOptions> {
	const checked: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(input)) {
		if (value === undefined) continue;
		if (!isOptionName(name)) {
			throw new OptionError(`unknown option "${name}"; known: ${OPTION_NAMES.join(', ')}`);
		}
		checked[name] = checkValue(name, value);
	}
	return checked as Partial<SandboxOptions>;
}

/** Merges and checks the combination (the fault fractions share one roll, so they cannot exceed 1). */
export function mergeOptions(
	base: SandboxOptions,
	change: Partial<SandboxOptions>,
): SandboxOptions {
	const merged: SandboxOptions = { ...base, ...checkOptions(change) };
	const faultTotal = merged.fault429 + merged.fault5xx + merged.faultDrop + merged.faultExpireToken;
	if (faultTotal > 1 + 1e-9) {
		throw new OptionError(`the fault fractions add up to ${faultTotal}, more than 1`);
	}
	return merged;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv): Partial<SandboxOptions> {
	const found: Record<string, unknown> = {};
	for (const name of OPTION_NAMES) {
		const text = env[envName(name)];
		if (text !== undefined && text !== '') found[name] = text;
	}
	return checkOptions(found);
}

export interface ParsedArgs {
	options: Partial<SandboxOptions>;
	help: boolean;
}

/** Reads `--latency-ms 50` and `--latency-ms=50` forms. */
export function optionsFromArgs(argv: readonly string[]): ParsedArgs {
	const byFlag = new Map(OPTION_NAMES.map((name) => [flagName(name), name] as const));
	const found: Record<string, unknown> = {};
	let help = false;
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--help' || arg === '-h') {
			help = true;
			continue;
		}
		const match = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(arg);
		const name = match ? byFlag.get(match[1]) : undefined;
		if (!match || !name) throw new OptionError(`unknown argument "${arg}" (see --help)`);
		let value = match[2];
		if (value === undefined) {
			value = argv[index + 1];
			if (value === undefined) throw new OptionError(`--${match[1]} needs a value`);
			index++;
		}
		found[name] = value;
	}
	return { options: checkOptions(found), help };
}

export function describeFlags(): string {
	return OPTION_NAMES.map((name) => {
		const fallback = name === 'port' ? CLI_DEFAULT_PORT : DEFAULT_OPTIONS[name];
		const shown = Array.isArray(fallback) ? fallback.join(',') : String(fallback);
		return (
			`  --${flagName(name)} <value>`.padEnd(38) +
			`${envName(name)}`.padEnd(32) +
			`default ${shown}`
		);
	}).join('\n');
}
