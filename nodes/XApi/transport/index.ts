import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodTypeAny } from 'zod';

import type { Run } from '../../shared/items/operation';
import { openRun } from '../../shared/items/router';
import { clientThrottle, WINDOW_MARGIN_MS } from '../../shared/pacing/throttle';
import type { Deadline, Throttle } from '../../shared/pacing/time';
import { callApi } from '../../shared/request/call';
import {
	apiError,
	documentedAnswer,
	HttpProblem,
	requestTimeoutMs,
	withFailure,
} from '../../shared/request/answer';
import { liveClientRedactor, type Redactor } from '../../shared/request/secrets';
import {
	authorizationProblem,
	DEFAULT_OAUTH2_REQUESTS_PER_MINUTE,
	DEFAULT_REQUEST_TIMEOUT_SEC,
	lrsClientKey,
	lrsRedactor,
	normalizedEndpoint,
	XAPI_VERSION,
} from './authorization';

export const CREDENTIAL_TYPE = 'xApiLrsApi';

const LRS_HEADERS = {
	Accept: 'application/json',
	// The platform's documents list these for every call, `charset` as a header of its own.
	'Content-Type': 'application/json',
	charset: 'utf-8',
	'X-Experience-API-Version': XAPI_VERSION,
};

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
	readonly requestTimeoutMs: number;
}

export async function openLrsRun(fns: IExecuteFunctions | IPollFunctions): Promise<LrsRun> {
	const credentials = await fns.getCredentials(CREDENTIAL_TYPE);
	const endpoint = normalizedEndpoint(credentials.endpoint);
	if (!/^https?:\/\/[^/?#\s]+/i.test(endpoint)) {
		throw withFailure(
			new NodeOperationError(
				fns.getNode(),
				`The xAPI endpoint of the credential is not an http(s) address: "${lrsRedactor(credentials).text(endpoint)}"`,
				{ description: 'Set it to the xAPI base, e.g. https://lrs.example.com/data/xAPI' },
			),
			{ cause: 'configuration-invalid' },
		);
	}
	const problem = authorizationProblem(credentials);
	if (problem) throw new NodeOperationError(fns.getNode(), problem);
	const clientKey = lrsClientKey(credentials);
	const oauth2 = credentials.authentication === 'oauth2';
	// For OAuth2 the client's live mask, which learns tokens issued meanwhile.
	const outputMasks = oauth2
		? liveClientRedactor(clientKey, credentials.clientSecret, credentials.accessToken)
		: lrsRedactor(credentials);
	// One throttle per endpoint and credential identity, whichever n8n credential; Token and Basic
	// are paced only when a rate is set.
	const asked = Number(credentials.requestsPerMinute);
	const perMinute =
		Number.isFinite(asked) && asked > 0 ? asked : oauth2 ? DEFAULT_OAUTH2_REQUESTS_PER_MINUTE : 0;
	const credentialId = fns.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? 'unnamed';
	const rate = oauth2 ? pacedRate(perMinute) : perMinute;
	return openRun(
		fns,
		{ errorMasks: () => lrsRedactor(credentials), outputMasks },
		{
			endpoint,
			origin: new URL(endpoint).origin,
			// A token issued during the run is masked too: the mask is taken when it is needed.
			get redactor() {
				return lrsRedactor(credentials);
			},
			canRead: !oauth2,
			throttle: perMinute > 0 ? clientThrottle(clientKey, credentialId, rate).throttle : undefined,
			clientKey,
			requestTimeoutMs: requestTimeoutMs(credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
		},
	);
}

const PUSH_WINDOW_MS = 10_000;

// Even spacing (the throttle never bursts) that keeps any PUSH_WINDOW_MS within its share even
// when a request fires WINDOW_MARGIN_MS early; at the default, 58 a minute.
export function pacedRate(requestsPerMinute: number): number {
	const perWindow = (requestsPerMinute * PUSH_WINDOW_MS) / 60_000;
	const spacingMs = (PUSH_WINDOW_MS + WINDOW_MARGIN_MS) / perWindow;
	return Math.max(1, Math.floor(60_000 / spacingMs));
}

interface LrsRequest {
	method: IHttpRequestMethods;
	path?: string;
	url?: string;
	qs?: IDataObject;
	body?: unknown;
	/** Reads, and POSTs of statements with fixed ids: the store keeps one statement per id. */
	safeToRepeat: boolean;
	action: string;
	itemIndex?: number;
	deadline?: Deadline;
	answer?: { schema: ZodTypeAny; is: string };
	allowEmpty?: boolean;
	/** A statement by id: a 404 says it is not there, not that the endpoint is wrong. */
	namesRecord?: boolean;
}

const CALL_DEADLINE_MS = 3 * 60_000;

/** Never throws: a failure returns masked, with its status and whether an earlier attempt may have landed. */
export async function tryLrsRequest(run: LrsRun, request: LrsRequest) {
	try {
		const answer = await callApi(run.fns, {
			credentialType: CREDENTIAL_TYPE,
			method: request.method,
			url: request.url ?? `${run.endpoint}${request.path ?? ''}`,
			qs: request.qs,
			body: request.body,
			headers: LRS_HEADERS,
			origin: run.origin,
			requestTimeoutMs: run.requestTimeoutMs,
			deadline: request.deadline ?? run.deadline(CALL_DEADLINE_MS),
			retry: { safeToRepeat: request.safeToRepeat },
			throttle: run.throttle,
			allowEmpty: request.allowEmpty,
			stopped: () => run.stopped,
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
