import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import type { ZodTypeAny } from 'zod';

import type { Throttle } from '../../shared/pacing/time';
import { type ApiCall, callApi, type Run } from '../../shared/request/call';
import { apiError, HttpProblem } from '../../shared/request/failure';
import { documentedAnswer } from '../../shared/request/body';
import type { Redactor } from '../../shared/request/secrets';

export const CREDENTIAL_TYPE = 'xApiLrsApi';

/** To the Statements Resource, the only one the node uses, unless `url` is a `more` link. */
export type LrsRequest = Pick<ApiCall, 'method' | 'qs' | 'body' | 'allowEmpty'> &
	Partial<Pick<ApiCall, 'url' | 'deadline'>> & {
		action: string;
		itemIndex?: number;
		answer?: { schema: ZodTypeAny; is: string };
		/** A statement by id: a 404 says it is not there, not that the endpoint is wrong. */
		namesRecord?: boolean;
	};

const CALL_DEADLINE_MS = 3 * 60_000;

export interface LrsRun extends Run {
	readonly fns: IExecuteFunctions | IPollFunctions;
	readonly endpoint: string;
	/** The origin the credentials belong to: requests and `more` links stay on it. */
	readonly origin: string;
	readonly redactor: Redactor;
	/** False for the platform's push endpoint (OAuth2): it only takes statements. */
	readonly canRead: boolean;
	readonly throttle?: Throttle;
	readonly clientKey: string;
	readonly token?: ApiCall['token'];
	/** What every request carries (run.ts): the xAPI headers and the credential's timeout. */
	readonly headers: Record<string, string>;
	readonly requestTimeoutMs: number;
}

/** Never throws: a failure returns masked, with its status and whether an earlier attempt may have landed. */
export async function tryLrsRequest(run: LrsRun, request: LrsRequest) {
	try {
		const answer = await callApi(run.fns, {
			credentialType: CREDENTIAL_TYPE,
			method: request.method,
			url: request.url ?? `${run.endpoint}/statements`,
			qs: request.qs,
			body: request.body,
			headers: run.headers,
			origin: run.origin,
			requestTimeoutMs: run.requestTimeoutMs,
			deadline: request.deadline ?? run.deadline(CALL_DEADLINE_MS),
			// Every request is a read, or a POST of statements whose ids are fixed before the first
			// attempt: the store keeps one statement per id, so a repeat cannot duplicate.
			retry: { safeToRepeat: true },
			throttle: run.throttle,
			allowEmpty: request.allowEmpty,
			stopped: () => run.stopped,
			token: run.token,
		});
		const body = request.answer
			? documentedAnswer(answer, request.answer.schema, request.answer.is)
			: answer.body;
		return { ok: true as const, body, bytes: answer.bytes, headers: answer.headers };
	} catch (failure) {
		const problem = failure instanceof HttpProblem ? failure : undefined;
		return {
			ok: false as const,
			status: problem?.status,
			repeated: problem?.details.repeated ?? false,
			error: apiError(run.fns.getNode(), failure, {
				itemIndex: request.itemIndex,
				action: request.action,
				redactor: run.redactor,
				namesRecord: request.namesRecord,
			}),
		};
	}
}
