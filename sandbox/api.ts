/** The authenticated LMS API routes. The server has already checked the token and throttle. */

import type { CourseStore } from './courses';
import { toListItem } from './courses';
import { parseCourseInput } from './courseInput';
import { jsonReply, messageReply, parseJsonBody, type Reply } from './reply';
import type { SandboxOptions } from './options';
import { TransactionStore, type TransactionOutcome } from './transactions';
import { AssignmentStore, parseAssignmentInput } from './userCourses';
import { FieldErrors } from './validation';

export const COURSES_PATH = '/api/developer/v2/courses.json';
export const USER_COURSES_PATH = '/api/developer/v2/user_courses.json';
export const REQUEST_DATA_PREFIX = '/api/developer/v2/request_data/';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

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

type Handler = (request: ApiRequest, context: ApiContext) => Reply;

export type RouteMatch = { found: true; handler: Handler } | { found: false; reply: Reply };

function accepted(
	request: ApiRequest,
	context: ApiContext,
	externalId: string,
	apply: (now: number) => TransactionOutcome,
): Reply {
	const delay = context.options().transactionDelayMs;
	const record = context.transactions.create(request.path, externalId, apply, delay, request.now);
	return jsonReply(202, { message: 'Request accepted', data: TransactionStore.view(record) });
}

const upsertCourse: Handler = (request, context) => {
	const body = parseJsonBody(request.rawBody, request.contentType);
	if (!body.ok) return body.reply;
	const input = parseCourseInput(body.value);
	if (!input.ok) return input.errors.toReply();
	const { metadata } = input;
	return accepted(request, context, metadata.external_id, (now) =>
		context.courses.apply(metadata, now),
	);
};

function readPaging(query: URLSearchParams): { offset: number; limit: number } | FieldErrors {
	const errors = new FieldErrors();
	const read = (name: string, fallback: number, minimum: number): number => {
		const text = query.get(name);
		if (text === null || text === '') return fallback;
		const value = Number(text);
		if (!Number.isInteger(value) || value < minimum) {
			errors.add(name, `must be an integer of at least ${minimum}`);
			return fallback;
		}
		return value;
	};
	const offset = read('offset', 0, 0);
	const limit = Math.min(read('limit', DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
	return errors.isEmpty ? { offset, limit } : errors;
}

const listCourses: Handler = (request, context) => {
	const paging = readPaging(request.query);
	if (paging instanceof FieldErrors) return paging.toReply();
	const data = context.courses.page(paging.offset, paging.limit).map(toListItem);
	const withTotal = request.query.get('return_total_count') === 'true';
	return jsonReply(200, withTotal ? { data, total_count: context.courses.count } : { data });
};

const writeUserCourse: Handler = (request, context) => {
	const body = parseJsonBody(request.rawBody, request.contentType);
	if (!body.ok) return body.reply;
	const input = parseAssignmentInput(body.value);
	if (!input.ok) return input.errors.toReply();
	const { write } = input;
	return accepted(request, context, write.external_id, (now) =>
		context.assignments.apply(write, now),
	);
};

const getTransaction: Handler = (request, context) => {
	const id = decodeURIComponent(request.path.slice(REQUEST_DATA_PREFIX.length));
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
