/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/**
 * The platform's xAPI push endpoint on the sandbox's own host (platform-docs 002):
 * - POST /api/lrs/v1/xapi/oauth2/token: OAuth2 client credentials, form-encoded, in the body;
 * - POST /api/lrs/v1/xapi/statements: one statement, Bearer token;
 * - 10 requests per 10 s per organization (the statements; 429 with Retry-After);
 * - 401 for invalid or expired credentials, with nothing changed.
 *
 * Where the documents are silent the sandbox chooses, and says so here:
 * - the statement answer: 200 `{"id": …}` (no body is documented); the same id with the same
 *   content again: 200 (stored once); the same id with other content: 409;
 * - arrays (batches) are refused with 400: they are not documented;
 * - a learner is known when the e-mail's domain is one of `userDomains` (as for assignments);
 *   content is known when the activity id carries no `ecl_id`, or one naming a course of the
 *   sandbox (by its ecl_id or external id): anything else is refused with 422 and a message;
 * - only the documented complete and start verbs are taken (400 otherwise);
 * - the token requests do not count against the throttle.
 */

import { randomUUID } from 'crypto';
import type { IncomingHttpHeaders } from 'http';

import { TokenStore } from './auth';
import type { CourseStore } from './courses';
import type { SandboxOptions } from './options';
import { slidingWindow } from './throttle';
import { isJsonObject } from './validation';
import { jsonReply, mediaType, mediaTypes, messageReply, type Reply } from './reply';

export const LRS_PREFIX = '/api/lrs/v1/xapi';
export const LRS_TOKEN_PATH = `${LRS_PREFIX}/oauth2/token`;
export const LRS_STATEMENTS_PATH = `${LRS_PREFIX}/statements`;

/** The documented scope. */
export const LRS_SCOPE = 'xapi:write';

/** The platform counts its budget over this window. */
export const LRS_WINDOW_MS = 10_000;

/** The verbs the push endpoint takes: the two completed ids and the start id. */
export const LRS_VERBS = [
	'http://adlnet.gov/expapi/verbs/completed',
	'http://activitystrea.ms/schema/1.0/complete',
	'http://activitystrea.ms/schema/1.0/start',
];

/** A sliding window: at most `perWindow` requests granted in any LRS_WINDOW_MS. */
export class WindowThrottle {
	private window = slidingWindow(LRS_WINDOW_MS, () => this.perWindow);

	constructor(private perWindow: number) {}

	setRate(perWindow: number): void {
		this.perWindow = perWindow;
	}

	/** null when granted, else the seconds to wait (for Retry-After). */
	take(now: number): number | null {
		if (this.perWindow <= 0) return null;
		const waitMs = this.window.waitMs(now);
		if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
		this.window.grant(now);
		return null;
	}

	clear(): void {
		this.window = slidingWindow(LRS_WINDOW_MS, () => this.perWindow);
	}
}

export interface StoredStatement {
	id: string;
	statement: Record<string, unknown>;
	storedAt: string;
}

export interface LrsRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	rawBody: string;
	headers: IncomingHttpHeaders;
	now: number;
}

/** JSON with sorted keys: the same content in any key order is the same text. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isJsonObject(value)) {
		return `{${Object.keys(value)
			.filter((key) => value[key] !== undefined)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** What the store compares: the statement without its id and what a store adds itself. */
function content(statement: Record<string, unknown>): string {
	const { id: _id, stored: _stored, authority: _authority, version: _version, ...rest } = statement;
	return canonical(rest);
}

/** An OAuth 2 error answer. */
function refused(error: string, message: string, status = 400): Reply {
	return jsonReply(status, { error, message });
}

export class PushEndpoint {
	readonly tokens = new TokenStore();
	readonly throttle: WindowThrottle;
	private readonly statements = new Map<string, StoredStatement>();

	constructor(
		private readonly options: () => SandboxOptions,
		private readonly courses: CourseStore,
		private readonly isKnownUser: (email: string) => boolean,
	) {
		this.throttle = new WindowThrottle(options().lrsRatePer10Sec);
	}

	handles(path: string): boolean {
		return path === LRS_PREFIX || path.startsWith(`${LRS_PREFIX}/`);
	}

	answer(request: LrsRequest): Reply {
		const { method, path } = request;
		// The statements endpoint is for pushing: there is nothing to read.
		if (path !== LRS_TOKEN_PATH && path !== LRS_STATEMENTS_PATH) {
			return messageReply(404, `Not found: ${method} ${path}`);
		}
		if (method !== 'POST') return jsonReply(405, { message: 'Use POST' }, { Allow: 'POST' });
		return path === LRS_TOKEN_PATH ? this.token(request) : this.record(request);
	}

	snapshot(): { statements: StoredStatement[]; tokensIssued: number } {
		return {
			statements: [...this.statements.values()].map((entry) => ({
				...entry,
				statement: JSON.parse(JSON.stringify(entry.statement)) as Record<string, unknown>,
			})),
			tokensIssued: this.tokens.issuedCount,
		};
	}

	clear(): void {
		this.statements.clear();
		this.throttle.clear();
		this.tokens.resetCount();
	}

	/** Every token issued so far stops working (as after the credentials were deleted and made again). */
	revokeTokens(): void {
		this.tokens.revokeAll();
	}

	private token(request: LrsRequest): Reply {
		const options = this.options();
		if (request.query.has('client_secret') || request.query.has('client_id')) {
			return refused(
				'invalid_request',
				'The client credentials go in the form body, not in the query string',
			);
		}
		if (mediaType(request.headers['content-type']) !== 'application/x-www-form-urlencoded') {
			return refused('invalid_request', 'The body must be application/x-www-form-urlencoded');
		}
		const form = new URLSearchParams(request.rawBody);
		if (form.get('grant_type') !== 'client_credentials') {
			return refused('unsupported_grant_type', 'grant_type must be client_credentials');
		}
		const scopes = (form.get('scope') ?? '').split(/\s+/).filter(Boolean);
		if (!scopes.includes(LRS_SCOPE)) {
			return refused('invalid_scope', `The scope must include ${LRS_SCOPE}`);
		}
		if (
			form.get('client_id') !== options.lrsClientId ||
			form.get('client_secret') !== options.lrsClientSecret
		) {
			return refused('invalid_client', 'Invalid, expired or deleted client credentials', 401);
		}
		return this.tokens.grant(options.lrsClientId, options.tokenLifetimeSec, request.now);
	}

	private record(request: LrsRequest): Reply {
		const auth = this.tokens.check(request.headers.authorization, request.now);
		if (!auth.ok) return auth.reply;
		const retryAfterSec = this.throttle.take(request.now);
		if (retryAfterSec !== null) {
			return jsonReply(
				429,
				{ message: 'Too many requests: 10 per 10 seconds per organization' },
				{ 'Retry-After': String(retryAfterSec) },
			);
		}
		if (!mediaTypes(request.headers.accept).includes('application/json')) {
			return messageReply(406, 'Accept must be application/json');
		}
		if (mediaType(request.headers['content-type']) !== 'application/json') {
			return messageReply(415, 'Content-Type must be application/json');
		}
		let body: unknown;
		try {
			body = JSON.parse(request.rawBody) as unknown;
		} catch {
			return messageReply(400, 'Request body is not valid JSON');
		}
		if (Array.isArray(body)) {
			return messageReply(400, 'Send one statement per request: batches are not supported');
		}
		if (!isJsonObject(body))
			return messageReply(400, 'The body must be one statement (a JSON object)');
		const problem = this.refusal(body);
		if (problem) return problem;
		const id = typeof body.id === 'string' ? body.id.toLowerCase() : randomUUID();
		const existing = this.statements.get(id);
		if (existing) {
			if (content(existing.statement) !== content(body)) {
				return messageReply(409, `A different statement with id ${id} is already recorded`);
			}
			return jsonReply(200, { id });
		}
		this.statements.set(id, {
			id,
			statement: { ...body, id },
			storedAt: new Date(request.now).toISOString(),
		});
		return jsonReply(200, { id });
	}

	/** Why the statement cannot be taken, or null. */
	private refusal(statement: Record<string, unknown>): Reply | null {
		if (
			statement.id !== undefined &&
			(typeof statement.id !== 'string' || !/^[0-9a-f-]{36}$/i.test(statement.id))
		) {
			return messageReply(400, 'id must be a UUID');
		}
		const actor = statement.actor;
		if (!isJsonObject(actor) || actor.objectType !== 'Agent' || typeof actor.mbox !== 'string') {
			return messageReply(400, 'actor must be an Agent with objectType "Agent" and an mbox');
		}
		const email = actor.mbox.replace(/^mailto:/i, '');
		const verb = statement.verb;
		if (!isJsonObject(verb) || typeof verb.id !== 'string' || !isJsonObject(verb.display)) {
			return messageReply(400, 'verb must have an id and a display');
		}
		if (!LRS_VERBS.includes(verb.id)) {
			return messageReply(
				400,
				`Unsupported verb ${verb.id}: only complete and start events are taken`,
			);
		}
		const object = statement.object;
		const definition = isJsonObject(object) ? object.definition : undefined;
		if (
			!isJsonObject(object) ||
			typeof object.id !== 'string' ||
			!isJsonObject(definition) ||
			typeof definition.type !== 'string' ||
			!isJsonObject(definition.name)
		) {
			return messageReply(400, 'object must have an id, definition.type and definition.name');
		}
		if (!this.isKnownUser(email)) {
			return messageReply(422, `Unknown user: no learner with e-mail ${email}`);
		}
		let eclId: string | null = null;
		try {
			eclId = new URL(object.id).searchParams.get('ecl_id');
		} catch {
			return messageReply(400, 'object.id must be a URL');
		}
		if (eclId !== null && !this.isKnownContent(eclId)) {
			return messageReply(422, `Unknown content: no content with ecl_id ${eclId}`);
		}
		return null;
	}

	private isKnownContent(eclId: string): boolean {
		if (this.courses.get(eclId)) return true;
		const { courses } = this.courses.snapshot();
		return Object.values(courses).some((course) => course.ecl_id === eclId);
	}
}
