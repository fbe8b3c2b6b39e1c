import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IPollFunctions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiError } from '../../shared/errors';
import { describeHttpFailure } from '../../shared/httpFailure';
import { sendWithRetry } from '../../shared/retry';
import { authorizationHeader, XAPI_VERSION } from './authorization';

export const CREDENTIAL_TYPE = 'xApiLrsApi';

/** Both the action node and the polling trigger talk to the record store. */
export type LrsFunctions = IExecuteFunctions | IPollFunctions;

export interface LrsCredentials extends IDataObject {
	endpoint: string;
	authentication: 'token' | 'basic';
	token?: string;
	username?: string;
	password?: string;
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
}

export type LrsOutcome =
	| { ok: true; body: unknown; attempts: number }
	| { ok: false; status?: number; attempts: number; error: NodeApiError };

/** A single answer may take this long before it counts as a (retryable) timeout. */
const REQUEST_TIMEOUT_MS = 60_000;

export async function lrsCredentials(this: LrsFunctions): Promise<LrsCredentials> {
	return await this.getCredentials<LrsCredentials>(CREDENTIAL_TYPE);
}

/** The xAPI base without trailing slashes (and without a pasted `/statements`). */
export function endpointOf(this: LrsFunctions, credentials: LrsCredentials): string {
	const endpoint = String(credentials.endpoint ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/statements$/i, '');
	if (!/^https?:\/\/[^/?#\s]+/i.test(endpoint)) {
		throw new NodeOperationError(
			this.getNode(),
			`The xAPI endpoint of the credential is not an http(s) address: "${endpoint}"`,
			{ description: 'Set it to the xAPI base, e.g. https://lrs.example.com/data/xAPI' },
		);
	}
	return endpoint;
}

/**
 * One record store call: authenticated by the credential, retried as its safety allows
 * (429s always), and never thrown: a failure comes back as a redacted NodeApiError together
 * with its HTTP status and the number of attempts made, so that callers can tell a 409 on a
 * retry from one on a first attempt.
 */
export async function tryLrsRequest(this: LrsFunctions, request: LrsRequest): Promise<LrsOutcome> {
	const credentials = await lrsCredentials.call(this);
	const endpoint = endpointOf.call(this, credentials);
	let attempts = 0;
	let failure: unknown;
	try {
		const body = await sendWithRetry(
			async () => {
				attempts++;
				return await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
					method: request.method,
					url: request.url ?? `${endpoint}${request.path ?? ''}`,
					qs: request.qs,
					body: request.body as IDataObject,
					json: true,
					timeout: REQUEST_TIMEOUT_MS,
					headers: {
						Accept: 'application/json',
						'Content-Type': 'application/json',
						'X-Experience-API-Version': XAPI_VERSION,
					},
				});
			},
			{ safeToRepeat: request.safeToRepeat },
		);
		return { ok: true, body, attempts };
	} catch (error) {
		failure = error;
	}
	const secrets = [credentials.token, credentials.password, authorizationHeader(credentials)];
	return {
		ok: false,
		status: describeHttpFailure(failure).status,
		attempts,
		error: apiError(this.getNode(), failure, {
			itemIndex: request.itemIndex,
			action: request.action,
			secrets,
		}),
	};
}

/** Like tryLrsRequest, but a failure is thrown. */
export async function lrsRequest(this: LrsFunctions, request: LrsRequest): Promise<unknown> {
	const outcome = await tryLrsRequest.call(this, request);
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
	const sameHost = target.hostname === base.hostname && target.port === base.port;
	const noDowngrade = base.protocol === 'http:' || target.protocol === 'https:';
	return sameHost && noDowngrade ? target.toString() : undefined;
}
