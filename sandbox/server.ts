/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/** startSandbox(): the local imitation of the LMS API, on Node's http module. */

import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type ServerResponse,
} from 'http';
import type { AddressInfo } from 'net';
import { ADMIN_PREFIX, handleAdmin } from './admin';
import { checkDocumentedHeaders, matchApiRoute, type ApiContext } from './api';
import { handleTokenRequest, TokenStore, unauthorized } from './auth';
import { SYSTEM_CLOCK, type SandboxClock } from './clock';
import { CourseStore } from './courses';
import { Delays } from './delays';
import { FaultPicker, faultReply, type FaultKind } from './faults';
import { RequestLog, type LoggedRequest } from './log';
import {
	DEFAULT_OPTIONS,
	mergeOptions,
	OptionError,
	STARTUP_ONLY_OPTIONS,
	type SandboxOptions,
} from './options';
import { createRandom, type Random } from './random';
import {
	BodyTooLargeError,
	jsonReply,
	messageReply,
	readBody,
	writeReply,
	type Reply,
} from './reply';
import type { SandboxState } from './state';
import { PushEndpoint } from './lrs';
import { Throttle } from './throttle';
import { TransactionStore } from './transactions';
import { AssignmentStore } from './userCourses';

export type { SandboxOptions } from './options';
export type { SandboxClock } from './clock';
export { ManualClock, SYSTEM_CLOCK } from './clock';
export type { SandboxState } from './state';
export type { LoggedRequest } from './log';
export type { StoredStatement } from './lrs';
export { LRS_STATEMENTS_PATH, LRS_TOKEN_PATH } from './lrs';

export const TOKEN_PATH = '/api/oauth/token';

export interface Sandbox {
	/** http://127.0.0.1:PORT, no trailing slash: the credential's base URL. */
	readonly url: string;
	/** The push endpoint's xAPI base, `{url}/api/lrs/v1/xapi`: the xAPI credential's endpoint. */
	readonly lrsEndpoint: string;
	readonly lrsClientId: string;
	readonly lrsClientSecret: string;
	/** Every push-endpoint token issued so far stops working (the next request gets a 401). */
	revokeLrsTokens(): void;
	readonly port: number;
	readonly clientId: string;
	readonly clientSecret: string;
	/** A copy of the current options. */
	readonly options: SandboxOptions;
	/** Changes knobs at run time (not port or host); returns the new options. */
	configure(change: Partial<SandboxOptions>): SandboxOptions;
	requests(): LoggedRequest[];
	state(): SandboxState;
	reset(): void;
	close(): Promise<void>;
}

/** What is not a knob: injection points for tests. */
export interface SandboxSetup {
	/** The sandbox's time (token expiry, throttle, transactions, latency, log); the system clock by default. */
	clock?: SandboxClock;
}

interface Outcome {
	/** null: drop the connection without answering. */
	reply: Reply | null;
	fault: FaultKind | null;
}

/** The jitter stream is separate from the fault stream so that latency settings do not shift faults. */
const JITTER_SEED_OFFSET = 0x9e3779b9;

class SandboxCore {
	options: SandboxOptions;
	readonly courses = new CourseStore();
	readonly assignments = new AssignmentStore(this.courses, () => this.options.userDomains);
	readonly transactions = new TransactionStore();
	readonly tokens = new TokenStore();
	readonly lrs: PushEndpoint;
	readonly log = new RequestLog();
	readonly delays: Delays;
	readonly throttle: Throttle;
	readonly faults: FaultPicker;
	private jitter: Random;
	private readonly apiContext: ApiContext;
	closed = false;

	constructor(
		options: SandboxOptions,
		readonly clock: SandboxClock,
	) {
		this.options = options;
		this.delays = new Delays(clock);
		this.throttle = new Throttle(options.rateLimitPerMinute, options.throttleShape);
		this.faults = new FaultPicker(options.seed);
		this.lrs = new PushEndpoint(
			() => this.options,
			this.courses,
			(email) => this.assignments.isKnownUser(email),
		);
		this.jitter = createRandom(options.seed + JITTER_SEED_OFFSET);
		this.apiContext = {
			options: () => this.options,
			courses: this.courses,
			assignments: this.assignments,
			transactions: this.transactions,
		};
	}

	configure(change: Partial<SandboxOptions>): SandboxOptions {
		for (const name of STARTUP_ONLY_OPTIONS) {
			if (change[name] !== undefined && change[name] !== this.options[name]) {
				throw new OptionError(`${name} cannot change while the server runs`);
			}
		}
		this.options = mergeOptions(this.options, change);
		this.throttle.setRate(this.options.rateLimitPerMinute, this.options.throttleShape);
		this.lrs.throttle.setRate(this.options.lrsRatePer10Sec);
		if (change.seed !== undefined) this.reseed();
		return { ...this.options, userDomains: [...this.options.userDomains] };
	}

	state(): SandboxState {
		this.transactions.settle(this.clock.now());
		const { courses, writesAppliedByExternalId } = this.courses.snapshot();
		return {
			courses,
			assignments: this.assignments.snapshot(),
			transactions: this.transactions.snapshot(),
			tokensIssued: this.tokens.issuedCount,
			writesAppliedByExternalId,
			lrs: this.lrs.snapshot(),
		};
	}

	reset(): void {
		this.courses.clear();
		this.assignments.clear();
		this.transactions.clear();
		this.log.clear();
		this.throttle.clear();
		this.tokens.resetCount();
		this.lrs.clear();
		this.reseed();
	}

	async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const method = req.method ?? 'GET';
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		const path = url.pathname;
		let rawBody: string;
		try {
			rawBody = await readBody(req);
		} catch (error) {
			if (error instanceof BodyTooLargeError) writeReply(res, messageReply(413, error.message));
			return;
		}
		const contentType = req.headers['content-type'];
		if (path === ADMIN_PREFIX.slice(0, -1) || path.startsWith(ADMIN_PREFIX)) {
			writeReply(res, handleAdmin(method, path, rawBody, contentType, this.adminControls()));
			return;
		}
		const entry = this.log.start(
			method,
			path,
			url.searchParams,
			req.headers,
			rawBody,
			this.clock.now(),
		);
		await this.delays.wait(this.latencyMs());
		if (this.closed) {
			req.socket.destroy();
			return;
		}
		const now = this.clock.now();
		this.transactions.settle(now);
		const outcome = this.answer(method, path, url.searchParams, rawBody, req.headers, now);
		entry.fault = outcome.fault;
		if (outcome.reply === null) {
			req.socket.destroy();
			return;
		}
		entry.status = outcome.reply.status;
		writeReply(res, outcome.reply);
	}

	private answer(
		method: string,
		path: string,
		query: URLSearchParams,
		rawBody: string,
		headers: IncomingHttpHeaders,
		now: number,
	): Outcome {
		const plain = (reply: Reply): Outcome => ({ reply, fault: null });
		if (this.lrs.handles(path))
			return plain(this.lrs.answer({ method, path, query, rawBody, headers, now }));
		if (path === TOKEN_PATH) {
			// "All calls are throttled ... per client": a token request counts against the
			// client it names, whether or not its secret is right.
			if (method === 'POST' && query.get('client_id') === this.options.clientId) {
				const refused = this.throttled(this.options.clientId, now);
				if (refused) return plain(refused);
			}
			return plain(handleTokenRequest(method, query, this.options, this.tokens, now));
		}
		const route = matchApiRoute(method, path);
		if (!route.found) return plain(route.reply);
		const auth = this.tokens.check(headers.authorization, now);
		if (!auth.ok) return plain(auth.reply);
		const refused = this.throttled(auth.clientId, now);
		if (refused) return plain(refused);
		const fault = this.faults.pick(this.options);
		const run = () =>
			checkDocumentedHeaders(headers) ??
			route.handler(
				{ method, path, query, rawBody, contentType: headers['content-type'], now },
				this.apiContext,
			);
		switch (fault) {
			case null:
				return { reply: run(), fault };
			case 'drop-before-apply':
				return { reply: null, fault };
			case 'drop-after-apply':
				run();
				return { reply: null, fault };
			case 'expire-token':
				this.tokens.revoke(auth.token);
				return { reply: unauthorized('Access token expired'), fault };
			default:
				return { reply: faultReply(fault), fault };
		}
	}

	/** null when the client may go on, else the 429 to answer. */
	private throttled(clientId: string, now: number): Reply | null {
		const decision = this.throttle.take(clientId, now);
		if (decision.allowed) return null;
		const headers = this.options.throttleRetryAfter
			? { 'Retry-After': String(decision.retryAfterSec) }
			: undefined;
		return jsonReply(429, { message: 'Too many requests' }, headers);
	}

	/** Whole milliseconds (timers have no finer resolution). */
	private latencyMs(): number {
		const { latencyMs, latencyJitterMs } = this.options;
		const spread = latencyJitterMs > 0 ? (this.jitter() * 2 - 1) * latencyJitterMs : 0;
		return Math.max(0, Math.round(latencyMs + spread));
	}

	private reseed(): void {
		this.faults.reseed(this.options.seed);
		this.jitter = createRandom(this.options.seed + JITTER_SEED_OFFSET);
	}

	private adminControls() {
		return {
			requests: () => this.log.list(),
			clearRequests: () => this.log.clear(),
			state: () => this.state(),
			reset: () => this.reset(),
			configure: (change: Partial<SandboxOptions>) => this.configure(change),
			options: () => ({ ...this.options, userDomains: [...this.options.userDomains] }),
		};
	}
}

export async function startSandbox(
	options: Partial<SandboxOptions> = {},
	setup: SandboxSetup = {},
): Promise<Sandbox> {
	const core = new SandboxCore(
		mergeOptions({ ...DEFAULT_OPTIONS }, options),
		setup.clock ?? SYSTEM_CLOCK,
	);
	const server = createServer((req, res) => {
		core.handle(req, res).catch((error: Error) => {
			if (res.headersSent) {
				res.destroy();
				return;
			}
			writeReply(res, messageReply(500, `Sandbox error: ${error.message}`));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(core.options.port, core.options.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	// With port 0 the system picked one; report that one from now on.
	core.options = { ...core.options, port };
	const { host } = core.options;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	let closing: Promise<void> | undefined;

	return {
		url,
		port,
		lrsEndpoint: `${url}/api/lrs/v1/xapi`,
		get lrsClientId() {
			return core.options.lrsClientId;
		},
		get lrsClientSecret() {
			return core.options.lrsClientSecret;
		},
		revokeLrsTokens: () => core.lrs.revokeTokens(),
		get clientId() {
			return core.options.clientId;
		},
		get clientSecret() {
			return core.options.clientSecret;
		},
		get options() {
			return { ...core.options, userDomains: [...core.options.userDomains] };
		},
		configure: (change) => core.configure(change),
		requests: () => core.log.list(),
		state: () => core.state(),
		reset: () => core.reset(),
		close: () => {
			closing ??= new Promise<void>((resolve, reject) => {
				core.closed = true;
				core.delays.cancelAll();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			});
			return closing;
		},
	};
}
