import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INode,
	IPollFunctions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ZodTypeAny } from 'zod';

import type { Run } from '../../shared/items/operation';
import { openRun } from '../../shared/items/operation';
import { Deadline } from '../../shared/pacing/deadline';
import { clientThrottle } from '../../shared/pacing/clients';
import type { RequestThrottle } from '../../shared/pacing/throttle';
import { WINDOW_MARGIN_MS } from '../../shared/pacing/throttle';
import { documentedAnswer } from '../../shared/request/answer';
import { callApi } from '../../shared/request/call';
import { requestTimeoutMs } from '../../shared/request/retry';
import { liveClientRedactor } from '../../shared/request/clientSecrets';
import { apiError, HttpProblem, withFailure } from '../../shared/request/failure';
import { Redactor } from '../../shared/request/redact';
import {
	authorizationHeader,
	authorizationProblem,
	DEFAULT_OAUTH2_REQUESTS_PER_MINUTE,
	DEFAULT_REQUEST_TIMEOUT_SEC,
	lrsClientKey,
	normalizedEndpoint,
	XAPI_VERSION,
} from './authorization';
import { oauth2ClientKey, oauth2Redactor } from './oauth2';

export const CREDENTIAL_TYPE = 'xApiLrsApi';

/** Both the action node and the polling trigger talk to the record store. */
export type LrsFunctions = IExecuteFunctions | IPollFunctions;

export interface LrsCredentials extends IDataObject {
	endpoint: string;
	authentication: 'token' | 'basic' | 'oauth2';
	token?: string;
	username?: string;
	password?: string;
	clientId?: string;
	clientSecret?: string;
	scope?: string;
	tokenUrl?: string;
	accessToken?: string;
	requestsPerMinute?: number;
	requestTimeout?: number;
}

export interface LrsRequest {
	method: IHttpRequestMethods;
	/** A path under the endpoint, e.g. `/statements`. */
	path?: string;
	/** An absolute URL instead of `path` (a resolved `more` link). */
	url?: string;
	qs?: IDataObject;
	body?: unknown;
	/**
	 * Reads, and statement POSTs whose ids are fixed before the first attempt, may be repeated
	 * after a 5xx or a dropped connection: the record store keeps one statement per id.
	 */
	safeToRepeat: boolean;
	/** What the user asked for, for error messages ("Sending the statement of item 2"). */
	action: string;
	itemIndex?: number;
	/** Bounds the call and its retries; a default call deadline otherwise. */
	deadline?: Deadline;
	/** The documented shape of the answer, and what to call it in an error. */
	answer?: { schema: ZodTypeAny; is: string };
	/** Whether an empty successful answer is acceptable (a store that documents no answer body). */
	allowEmpty?: boolean;
	/** A statement by id: a 404 says it is not there, not that the endpoint is wrong. */
	namesRecord?: boolean;
}

export type LrsOutcome =
	| {
			ok: true;
			body: unknown;
			attempts: number;
			/** The memory the answer takes in bytes: its body and its parsed JSON. */
			bytes: number;
			/** The answer's headers, names in lower case. */
			headers: Record<string, unknown>;
	  }
	| {
			ok: false;
			status?: number;
			/** An earlier attempt may have been carried out (its answer was lost, or a 5xx). */
			repeated: boolean;
			error: NodeApiError;
	  };

/** The headers of every record store request, as the platform's document lists them. */
const LRS_HEADERS = {
	Accept: 'application/json',
	// The platform's documents list these for every call, `charset` as a header of its own.
	'Content-Type': 'application/json',
	charset: 'utf-8',
	'X-Experience-API-Version': XAPI_VERSION,
};

/** One call (with its retries) ends by this when the operation gives no deadline of its own. */
export const CALL_DEADLINE_MS = 3 * 60_000;

/** One execution of the xAPI node, or one poll of the trigger: created once, passed explicitly. */
export interface LrsRun extends Run {
	readonly fns: LrsFunctions;
	readonly credentials: LrsCredentials;
	/** The xAPI base, without trailing slashes. */
	readonly endpoint: string;
	/** The origin the credentials belong to: requests and `more` links stay on it. */
	readonly origin: string;
	/** Masks with every secret known for the credential now (tokens issued meanwhile included). */
	readonly redactor: Redactor;
	/**
	 * Whether the record store can be read. Not the platform's push endpoint (OAuth2): it is for
	 * pushing statements only, so nothing there may depend on reading one back.
	 */
	readonly canRead: boolean;
	/** The credential's process-wide pacing; undefined when it is not paced. */
	readonly throttle?: RequestThrottle;
	/** The process-wide client this credential belongs to (see shared/clients.ts). */
	readonly clientKey: string;
}

/** The xAPI base without trailing slashes (and without a pasted `/statements`). */
export function endpointOf(node: INode, credentials: LrsCredentials): string {
	const endpoint = normalizedEndpoint(credentials.endpoint);
	if (!/^https?:\/\/[^/?#\s]+/i.test(endpoint)) {
		throw withFailure(
			new NodeOperationError(
				node,
				`The xAPI endpoint of the credential is not an http(s) address: "${lrsRedactor(credentials).text(endpoint)}"`,
				{ description: 'Set it to the xAPI base, e.g. https://lrs.example.com/data/xAPI' },
			),
			{ cause: 'configuration-invalid' },
		);
	}
	return endpoint;
}

/** Everything to mask for this credential: the token (with and without its scheme), the password, the Basic pair. */
export function lrsRedactor(credentials: LrsCredentials): Redactor {
	if (credentials.authentication === 'oauth2') return oauth2Redactor(credentials);
	const header = authorizationHeader(credentials);
	return new Redactor([credentials.token, credentials.password, header]);
}

/** Opens a run: reads (and decrypts) the credential once and checks its endpoint. */
export async function openLrsRun(fns: LrsFunctions): Promise<LrsRun> {
	const credentials = await fns.getCredentials<LrsCredentials>(CREDENTIAL_TYPE);
	const endpoint = endpointOf(fns.getNode(), credentials);
	const problem = authorizationProblem(credentials);
	if (problem) throw new NodeOperationError(fns.getNode(), problem);
	// Output items are masked with a redactor built once (its pattern compiled once): for
	// OAuth2 the client's live one, which also learns tokens issued during the run.
	const outputMasks =
		credentials.authentication === 'oauth2'
			? liveClientRedactor(
					oauth2ClientKey(credentials),
					credentials.clientSecret,
					credentials.accessToken,
				)
			: lrsRedactor(credentials);
	const credentialId = fns.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? 'unnamed';
	const pacing = lrsPacing(credentials, credentialId);
	return openRun(
		fns,
		{ errorMasks: () => lrsRedactor(credentials), outputMasks },
		{
			credentials,
			endpoint,
			origin: new URL(endpoint).origin,
			// A token issued during the run is masked too: the mask is taken when it is needed.
			get redactor() {
				return lrsRedactor(credentials);
			},
			canRead: credentials.authentication !== 'oauth2',
			throttle: pacing?.throttle,
			clientKey: lrsClientKey(credentials),
		},
	);
}

/**
 * One record store call: authenticated by the credential, bounded by its deadline, retried as
 * its safety allows (429s always), redirects kept on the store's host, the answer required to
 * be JSON; never thrown: a failure comes back as a masked NodeApiError together with its HTTP
 * status and the number of attempts made, so that callers can tell a 409 on a retry from one
 * on a first attempt.
 */
export async function tryLrsRequest(run: LrsRun, request: LrsRequest): Promise<LrsOutcome> {
	try {
		const answer = await callApi(run.fns, {
			credentialType: CREDENTIAL_TYPE,
			method: request.method,
			url: request.url ?? `${run.endpoint}${request.path ?? ''}`,
			qs: request.qs,
			body: request.body,
			headers: LRS_HEADERS,
			origin: run.origin,
			requestTimeoutMs: requestTimeoutMs(run.credentials, DEFAULT_REQUEST_TIMEOUT_SEC),
			deadline: request.deadline ?? run.deadline(CALL_DEADLINE_MS),
			retry: { safeToRepeat: request.safeToRepeat },
			throttle: run.throttle,
			allowEmpty: request.allowEmpty,
			stopped: () => run.stopped,
		});
		const body = request.answer
			? documentedAnswer(answer, request.answer.schema, request.answer.is)
			: answer.body;
		return {
			ok: true,
			body,
			attempts: answer.attempts,
			bytes: answer.bytes,
			headers: answer.headers,
		};
	} catch (failure) {
		const problem = failure instanceof HttpProblem ? failure : undefined;
		return {
			ok: false,
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

/** Like tryLrsRequest, but a failure is thrown. */
export async function lrsRequest(run: LrsRun, request: LrsRequest): Promise<unknown> {
	const outcome = await tryLrsRequest(run, request);
	if (!outcome.ok) throw outcome.error;
	return outcome.body;
}

/**
 * Where a StatementResult's `more` link points. The specification makes it relative to the
 * record store's host (`/data/xAPI/statements?…`); some stores send it absolute, or relative to
 * the endpoint. Links to another host are refused: the request would carry the credentials.
 */
export function resolveMoreLink(endpoint: string, more: string): string | undefined {
	const base = new URL(`${endpoint}/`);
	let target: URL;
	try {
		target = new URL(more, base);
	} catch {
		return undefined;
	}
	return target.origin === base.origin ? target.toString() : undefined;
}

/** The platform counts its budget over this window. */
export const PUSH_WINDOW_MS = 10_000;

/**
 * The rate the shared throttle paces at for a budget given per minute but counted over
 * PUSH_WINDOW_MS: low enough that any PUSH_WINDOW_MS holds the window's share of it even when
 * a request arrives WINDOW_MARGIN_MS early against the one ten places before it (timers fire
 * late, answers take varying time). The shared throttle spaces requests evenly and never
 * bursts, so spacing alone keeps every window within budget. At the default: 58 a minute,
 * one request every 1.034 s.
 */
export function pacedRate(requestsPerMinute: number): number {
	const perWindow = (requestsPerMinute * PUSH_WINDOW_MS) / 60_000;
	const spacingMs = (PUSH_WINDOW_MS + WINDOW_MARGIN_MS) / perWindow;
	return Math.max(1, Math.floor(60_000 / spacingMs));
}

export interface LrsPacing {
	throttle: RequestThrottle;
	/** The rate asked for (per minute), as the credential gives it or by default. */
	requestsPerMinute: number;
}

/**
 * The process-wide throttle of this record store and credential, or undefined when it is not
 * paced. Keyed by the endpoint and the credential's identity (client ID, username, or a hash of
 * the token), so every execution in the process that uses them shares it, whichever n8n
 * credential holds them.
 */
export function lrsPacing(
	credentials: {
		endpoint?: unknown;
		authentication?: unknown;
		requestsPerMinute?: unknown;
		clientId?: unknown;
		username?: unknown;
		token?: unknown;
	},
	credentialId: string,
): LrsPacing | undefined {
	const asked = Number(credentials.requestsPerMinute);
	const oauth2 = credentials.authentication === 'oauth2';
	const requestsPerMinute =
		Number.isFinite(asked) && asked > 0 ? asked : oauth2 ? DEFAULT_OAUTH2_REQUESTS_PER_MINUTE : 0;
	if (requestsPerMinute <= 0) return undefined;
	const shared = clientThrottle(
		lrsClientKey(credentials),
		credentialId,
		oauth2 ? pacedRate(requestsPerMinute) : requestsPerMinute,
	);
	return { throttle: shared.throttle, requestsPerMinute };
}
