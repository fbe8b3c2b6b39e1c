import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import type { z, ZodTypeAny } from 'zod';

import type { RequestThrottle } from '../../shared/pacing/throttle';
import type { CompletionEstimate, Deadline } from '../../shared/pacing/time';
import type { Run } from '../../shared/items/operation';
import { callApi } from '../../shared/request/call';
import { clientRedactor } from '../../shared/request/secrets';
import type { Redactor } from '../../shared/request/secrets';
import { apiError, documentedAnswer, requestTimeoutMs } from '../../shared/request/answer';
import type { LmsCredentials } from './credential';
import { CREDENTIAL_TYPE, DEFAULT_REQUEST_TIMEOUT_SEC, lmsClientKey } from './credential';
import type { CatalogIndex } from './courses';

/** Reads (a transaction, a catalog walk) end by this when the operation gives no timeout. */
export const READ_DEADLINE_MS = 5 * 60_000;

export interface LmsRun extends Run {
	readonly credentials: LmsCredentials;
	readonly baseUrl: string;
	readonly origin: string;
	readonly throttle: RequestThrottle;
	/** The catalog by external id, read once per execution when an operation first needs it. */
	readonly catalog: CatalogIndex;
	/** When to check a write's transaction first, learned per client (see pacing/time.ts). */
	readonly completion: CompletionEstimate;
}

export interface LmsRequest<S extends ZodTypeAny = ZodTypeAny> {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Upserts keyed by an external id and reads may be repeated after a 5xx or a dropped connection. */
	safeToRepeat: boolean;
	action: string;
	deadline: Deadline;
	answer: { schema: S; is: string };
	/** Told the memory the answer takes (body and parsed JSON, in bytes): a walk counts it. */
	measured?: (bytes: number) => void;
	/** The request names a record (a transaction): a 404 says it is not there, not a bad setting. */
	namesRecord?: boolean;
}

/** Everything to mask for this credential: its secret and every token issued for its client. */
export function lmsRedactor(credentials: LmsCredentials): Redactor {
	return clientRedactor(
		lmsClientKey(credentials),
		credentials.clientSecret,
		credentials.accessToken,
	);
}

/** One API call: throttled per client, retried as safe, kept on the platform's host, checked. */
export async function lmsRequest<S extends ZodTypeAny>(
	run: LmsRun,
	itemIndex: number,
	request: LmsRequest<S>,
): Promise<z.output<S>> {
	try {
		const answer = await callApi(run.fns, {
			credentialType: CREDENTIAL_TYPE,
			method: request.method,
			url: `${run.baseUrl}${request.path}`,
			qs: request.qs,
			body: request.body,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			origin: run.origin,
			requestTimeoutMs: requestTimeoutMs(run.credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
			deadline: request.deadline,
			retry: { safeToRepeat: request.safeToRepeat, maxUnauthorizedAttempts: 3 },
			throttle: run.throttle,
			stopped: () => run.stopped,
		});
		request.measured?.(answer.bytes);
		return documentedAnswer(answer, request.answer.schema, request.answer.is);
	} catch (error) {
		// The live token may have been issued during this call: mask with what is known now.
		throw apiError(run.fns.getNode(), error, {
			itemIndex,
			action: request.action,
			redactor: lmsRedactor(run.credentials),
			namesRecord: request.namesRecord,
		});
	}
}
