/* eslint-disable -- sandbox code (a local test server), not part of the n8n package: the community-node rules do not apply */
/** The request log served at /__sandbox/requests. */

import type { IncomingHttpHeaders } from 'http';
import type { FaultKind } from './faults';

export interface LoggedRequest {
	seq: number;
	time: string;
	method: string;
	path: string;
	query: Record<string, string | string[]>;
	headers: { authorization: string | null; 'content-type': string | null; accept: string | null };
	/** Parsed JSON when the body is JSON, the raw text otherwise, null when empty. */
	body: unknown;
	/** null while in flight, and for dropped requests (nothing was answered). */
	status: number | null;
	fault: FaultKind | null;
}

/** Oldest entries are forgotten past this, so a long soak run does not grow without bound. */
export const MAX_LOG_ENTRIES = 50_000;

function queryObject(query: URLSearchParams): Record<string, string | string[]> {
	const result: Record<string, string | string[]> = {};
	for (const key of new Set(query.keys())) {
		const values = query.getAll(key);
		result[key] = values.length === 1 ? values[0] : values;
	}
	return result;
}

function bodyValue(raw: string): unknown {
	if (raw === '') return null;
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return raw;
	}
}

export class RequestLog {
	private entries: LoggedRequest[] = [];
	private nextSeq = 1;

	/** Records a request on arrival; the caller fills in status and fault when it is answered. */
	start(
		method: string,
		path: string,
		query: URLSearchParams,
		headers: IncomingHttpHeaders,
		rawBody: string,
		now: number,
	): LoggedRequest {
		const header = (name: string) => {
			const value = headers[name];
			return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
		};
		const entry: LoggedRequest = {
			seq: this.nextSeq++,
			time: new Date(now).toISOString(),
			method,
			path,
			query: queryObject(query),
			headers: {
				authorization: header('authorization'),
				'content-type': header('content-type'),
				accept: header('accept'),
			},
			body: bodyValue(rawBody),
			status: null,
			fault: null,
		};
		this.entries.push(entry);
		if (this.entries.length > MAX_LOG_ENTRIES)
			this.entries.splice(0, this.entries.length - MAX_LOG_ENTRIES);
		return entry;
	}

	list(): LoggedRequest[] {
		return structuredClone(this.entries);
	}

	clear(): void {
		this.entries = [];
	}
}
