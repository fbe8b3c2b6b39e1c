import {
	checkOptions,
	DEFAULT_OPTIONS,
	envName,
	flagName,
	mergeOptions,
	OptionError,
	optionsFromArgs,
	optionsFromEnv,
} from '../../sandbox/options';
import { startSandbox } from '../../sandbox/server';

describe('options', () => {
	it.each([
		['latencyMs', '--latency-ms', 'SANDBOX_LATENCY_MS'],
		['fault429', '--fault-429', 'SANDBOX_FAULT_429'],
		['fault5xx', '--fault-5xx', 'SANDBOX_FAULT_5XX'],
		['rateLimitPerMinute', '--rate-limit-per-minute', 'SANDBOX_RATE_LIMIT_PER_MINUTE'],
		['maxPageSize', '--max-page-size', 'SANDBOX_MAX_PAGE_SIZE'],
	] as const)('names %s as %s and %s', (name, flag, env) => {
		expect(`--${flagName(name)}`).toBe(flag);
		expect(envName(name)).toBe(env);
	});

	it('reads flags in both forms, with typed values', () => {
		const parsed = optionsFromArgs([
			'--port',
			'0',
			'--latency-ms=50',
			'--user-domains',
			'a.test, B.test',
			'--fault-drop',
			'0.25',
			'--max-page-size=25',
		]);
		expect(parsed).toEqual({
			help: false,
			options: {
				port: 0,
				latencyMs: 50,
				userDomains: ['a.test', 'b.test'],
				faultDrop: 0.25,
				maxPageSize: 25,
			},
		});
		expect(optionsFromArgs(['--help']).help).toBe(true);
	});

	it('reads the throttle shape and whether 429s carry Retry-After', () => {
		expect(DEFAULT_OPTIONS.throttleShape).toBe('sliding-60s+bucket-1s');
		expect(DEFAULT_OPTIONS.throttleRetryAfter).toBe(true);
		const parsed = optionsFromArgs([
			'--throttle-shape',
			'fixed-6s',
			'--throttle-retry-after=false',
		]);
		expect(parsed.options).toEqual({ throttleShape: 'fixed-6s', throttleRetryAfter: false });
		const env = { SANDBOX_THROTTLE_SHAPE: 'bucket-1s', SANDBOX_THROTTLE_RETRY_AFTER: 'true' };
		expect(optionsFromEnv(env)).toEqual({ throttleShape: 'bucket-1s', throttleRetryAfter: true });
	});

	it.each([
		[['--nope', '1']],
		[['--latency-ms']],
		[['--port', 'abc']],
		[['--fault-5xx', '2']],
		[['--max-page-size', '0']],
		[['--max-page-size', '12.5']],
		[['stray']],
		[['--throttle-shape', 'fixed-7s']],
		[['--throttle-retry-after', 'yes']],
	])('refuses the arguments %j', (argv) => {
		expect(() => optionsFromArgs(argv)).toThrow(OptionError);
	});

	it('reads environment variables', () => {
		expect(
			optionsFromEnv({
				SANDBOX_TRANSACTION_DELAY_MS: '250',
				SANDBOX_CLIENT_ID: 'env-client',
				SANDBOX_MAX_PAGE_SIZE: '20',
				OTHER: 'x',
			}),
		).toEqual({
			transactionDelayMs: 250,
			clientId: 'env-client',
			maxPageSize: 20,
		});
	});

	it('checks values and the sum of fault fractions', () => {
		expect(() => checkOptions({ tokenLifetimeSec: 0 })).toThrow(OptionError);
		expect(() => checkOptions({ clientSecret: '' })).toThrow(OptionError);
		expect(() => checkOptions({ seed: 1.5 })).toThrow(OptionError);
		expect(() =>
			mergeOptions({ ...DEFAULT_OPTIONS }, { fault429: 0.5, faultExpireToken: 0.6 }),
		).toThrow(/more than 1/);
		expect(
			mergeOptions({ ...DEFAULT_OPTIONS }, { fault429: 0.5, faultExpireToken: 0.5 }).fault429,
		).toBe(0.5);
	});

	it('takes a transaction capacity per second from a flag or the environment (default 0: no queue)', () => {
		expect(DEFAULT_OPTIONS.transactionsPerSecond).toBe(0);
		expect(optionsFromArgs(['--transactions-per-second', '4']).options).toEqual({
			transactionsPerSecond: 4,
		});
		expect(optionsFromEnv({ SANDBOX_TRANSACTIONS_PER_SECOND: '2.5' })).toEqual({
			transactionsPerSecond: 2.5,
		});
		expect(() => checkOptions({ transactionsPerSecond: -1 })).toThrow(OptionError);
	});

	it('serves pages of at most 50 by default: less than a client that assumes 100 expects', () => {
		expect(DEFAULT_OPTIONS.maxPageSize).toBe(50);
		expect(() => checkOptions({ maxPageSize: 0 })).toThrow(OptionError);
		expect(() => checkOptions({ maxPageSize: 1.5 })).toThrow(OptionError);
		expect(checkOptions({ maxPageSize: '200' })).toEqual({ maxPageSize: 200 });
	});

	it('startSandbox refuses invalid options', async () => {
		await expect(startSandbox({ rateLimitPerMinute: -1 })).rejects.toThrow(OptionError);
	});
});
