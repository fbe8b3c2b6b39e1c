/**
 * The authenticated LMS API routes. The server has already checked the token and throttle;
 * here every call is held to the documents: the documented headers, only the documented
 * query parameters, and documented bodies.
 */

import type { CourseStore } from './courses';
import { toListItem } from './courses';
import { parseCourseInput, type CourseMetadata } from './courseInput';
import { jsonReply, mediaTypes, messageReply, parseJsonBody, type Reply } from './reply';
import type { SandboxOptions } from './options';
import { TransactionStore, type TransactionOutcome } from './transactions';
import { AssignmentStore, parseAssignmentInput } from './userCourses';
import { FieldErrors } from './validation';

export const COURSES_PATH = '/api/developer/v2/courses.json';
export const USER_COURSES_PATH = '/api/developer/v2/user_courses.json';
export const REQUEST_DATA_PREFIX = '/api/developer/v2/request_data/';

/** The page served when a list call sends no `limit` (or `maxPageSize`, if that is smaller). */
export const DEFAULT_PAGE_SIZE = 10;

/** The documented query parameters of each route; any other is refused (422). */
export const LIST_PARAMETERS = ['offset', 'limit', 'return_total_count'] as const;

export interface ApiContext {
	options: () => SandboxOptions;
	courses: CourseStore;
	assignments: AssignmentStore;
	transactions: TransactionStore;
}

export interface ApiRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	rawBody: string;
	contentType: string | undefined;
	now: number;
}

/**
 * "Every call sends these headers: Accept: application/json, Content-Type: application/json,
 * Authorization: Bearer <ACCESS_TOKEN>" (the token endpoint excepted). The answer to a call
 * without them is not documented; the sandbox refuses it, so a client that leaves one out
 * finds out: no `application/json` in Accept → 406, another Content-Type (or none, GET
 * included) → 415.
 */
export function checkDocumentedHeaders(
	headers: Record<string, string | string[] | undefined>,
): Reply | null {
	if (!mediaTypes(headers.accept).includes('application/json')) {
		return messageReply(406, 'Accept must be application/json');
	}
	const contentType = mediaTypes(headers['content-type']);
	if (contentType.length !== 1 || contentType[0] !== 'application/json') {
		return messageReply(415, 'Content-Type must be application/json');
	}
	return null;
}

/** Refuses query parameters the documents do not give for the route, and repeated ones. */
function checkQuery(query: URLSearchParams, documented: readonly string[]): FieldErrors | null {
	const errors = new FieldErrors();
	for (const name of new Set(query.keys())) {
		if (!documented.includes(name)) errors.add(name, 'is not a documented query parameter');
		else if (query.getAll(name).length > 1) errors.add(name, 'is given more than once');
	}
	return errors.isEmpty ? null : errors;
}

type Handler = (request: ApiRequest, context: ApiContext) => Reply;

export type RouteMatch = { found: true; handler: Handler } | { found: false; reply: Reply };

function accepted(
	request: ApiRequest,
	context: ApiContext,
	externalId: string,
	message: string,
	apply: (now: number) => TransactionOutcome,
	extra: Record<string, unknown> = {},
): Reply {
	const { transactionDelayMs: delay, transactionsPerSecond } = context.options();
	const record = context.transactions.create(
		request.path,
		externalId,
		apply,
		delay,
		request.now,
		transactionsPerSecond,
	);
	return jsonReply(202, { message, data: { ...TransactionStore.view(record), ...extra } });
}

/** "It echoes name, external_id, content_type, prices_data, url and status." */
function coursePayload(metadata: CourseMetadata): Record<string, unknown> {
	return {
		name: metadata.name,
		external_id: metadata.external_id,
		content_type: metadata.content_type,
		prices_data: metadata.prices_data.map((price) => ({ ...price })),
		url: metadata.url,
		status: metadata.status,
	};
}

const upsertCourse: Handler = (request, context) => {
	const query = checkQuery(request.query, []);
	if (query) return query.toReply();
	const body = parseJsonBody(request.rawBody, request.contentType);
	if (!body.ok) return body.reply;
	const input = parseCourseInput(body.value);
	if (!input.ok) return input.errors.toReply();
	const { metadata } = input;
	return accepted(
		request,
		context,
		metadata.external_id,
		'Transaction for the course started in background',
		(now) => context.courses.apply(metadata, now),
		{ payload: coursePayload(metadata) },
	);
};

type Paging = { offset: number; limit: number; withTotal: boolean };

/**
 * offset and limit are whole numbers written in digits (offset 0 or more, limit 1 or more),
 * return_total_count is `true` or `false`. A missing offset is 0; a missing limit gives
 * DEFAULT_PAGE_SIZE; any limit is cut to maxPageSize. The answer's length, not the limit
 * asked for, says how far the page went.
 */
function readPaging(query: URLSearchParams, maxPageSize: number): Paging | FieldErrors {
	const errors = checkQuery(query, LIST_PARAMETERS) ?? new FieldErrors();
	const read = (name: string, fallback: number, minimum: number): number => {
		const text = query.get(name);
		if (text === null) return fallback;
		if (!/^\d+$/.test(text) || Number(text) < minimum || !Number.isSafeInteger(Number(text))) {
			errors.add(name, `must be a whole number of at least ${minimum}`);
			return fallback;
		}
		return Number(text);
	};
	const offset = read('offset', 0, 0);
	const limit = Math.min(read('limit', DEFAULT_PAGE_SIZE, 1), maxPageSize);
	const total = query.get('return_total_count');
	if (total !== null && total !== 'true' && total !== 'false') {
		errors.add('return_total_count', 'must be true or false');
	}
	return errors.isEmpty ? { offset, limit, withTotal: total === 'true' } : errors;
}

const listCourses: Handler = (request, context) => {
	const paging = readPaging(request.query, context.options().maxPageSize);
	if (paging instanceof FieldErrors) return paging.toReply();
	const data = context.courses.page(paging.offset, paging.limit).map(toListItem);
	return jsonReply(200, paging.withTotal ? { data, total_count: context.courses.count } : { data });
};

const writeUserCourse: Handler = (request, context) => {
	const query = checkQuery(request.query, []);
	if (query) return query.toReply();
	const body = parseJsonBody(request.rawBody, request.contentType);
	if (!body.ok) return body.reply;
	const input = parseAssignmentInput(body.value);
	if (!input.ok) return input.errors.toReply();
	const { write } = input;
	const receivedAt = request.now;
	return accepted(
		request,
		context,
		write.external_id,
		'Transaction for the user course started in background',
		(now) => context.assignments.apply(write, now, receivedAt),
	);
};

const getTransaction: Handler = (request, context) => {
	const query = checkQuery(request.query, []);
	if (query) return query.toReply();
	const raw = request.path.slice(REQUEST_DATA_PREFIX.length);
	let id: string;
	try {
		id = decodeURIComponent(raw);
	} catch {
		id = raw;
	}
	const record = context.transactions.get(id);
	if (!record) return messageReply(404, `Transaction not found: ${id}`);
	return jsonReply(200, { response: 'success', data: TransactionStore.view(record) });
};

const methodNotAllowed = (allowed: string[]): RouteMatch => ({
	found: false,
	reply: jsonReply(
		405,
		{ message: `Method not allowed; use ${allowed.join(' or ')}` },
		{ Allow: allowed.join(', ') },
	),
});

/** Finds the handler; unknown paths and methods are answered without needing a token. */
export function matchApiRoute(method: string, path: string): RouteMatch {
	if (path === COURSES_PATH) {
		if (method === 'POST') return { found: true, handler: upsertCourse };
		if (method === 'GET') return { found: true, handler: listCourses };
		return methodNotAllowed(['GET', 'POST']);
	}
	if (path === USER_COURSES_PATH) {
		return method === 'POST'
			? { found: true, handler: writeUserCourse }
			: methodNotAllowed(['POST']);
	}
	if (
		path.startsWith(REQUEST_DATA_PREFIX) &&
		path.length > REQUEST_DATA_PREFIX.length &&
		!path.slice(REQUEST_DATA_PREFIX.length).includes('/')
	) {
		return method === 'GET' ? { found: true, handler: getTransaction } : methodNotAllowed(['GET']);
	}
	return { found: false, reply: messageReply(404, `Not found: ${method} ${path}`) };
}
