import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiError } from '../../shared/errors';
import { sendWithRetry } from '../../shared/retry';
import { isSendingStopped } from '../../shared/stopSignal';
import { concurrencyFor, throttleFor } from '../../shared/throttle';

export const CREDENTIAL_TYPE = 'learningPlatformOAuth2Api';

export interface LmsCredentials extends IDataObject {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	requestsPerMinute: number;
	accessToken?: string;
}

export interface LmsRequest {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Upserts keyed by an external id and reads may be repeated after a 5xx or a dropped connection. */
	safeToRepeat: boolean;
	/** What the user asked for, for error messages ("Upserting course X"). */
	action: string;
}

export function baseUrlOf(credentials: LmsCredentials): string {
	return String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

// One execution's credentials do not change while it runs: read (and decrypt) them once.
const credentialsByExecution = new WeakMap<IExecuteFunctions, Promise<LmsCredentials>>();

export async function lmsCredentials(
	this: IExecuteFunctions,
	itemIndex = 0,
): Promise<LmsCredentials> {
	let credentials = credentialsByExecution.get(this);
	if (!credentials) {
		credentials = this.getCredentials<LmsCredentials>(CREDENTIAL_TYPE, itemIndex);
		credentialsByExecution.set(this, credentials);
	}
	return await credentials;
}

/** How many items the router keeps in flight for this credential's throttle. */
export function lmsConcurrency(credentials: LmsCredentials): number {
	return concurrencyFor(Number(credentials.requestsPerMinute) || 300);
}

/** One API call: throttled per client id, retried as its safety allows, errors redacted. */
export async function lmsRequest(
	this: IExecuteFunctions,
	itemIndex: number,
	request: LmsRequest,
): Promise<unknown> {
	const credentials = await lmsCredentials.call(this, itemIndex);
	const baseUrl = baseUrlOf(credentials);
	const throttle = throttleFor(
		`${baseUrl}|${credentials.clientId}`,
		Number(credentials.requestsPerMinute) || 300,
	);
	try {
		return await sendWithRetry(
			async () => {
				if (isSendingStopped(this))
					throw new NodeOperationError(
						this.getNode(),
						'Not sent: the run stopped at an earlier item',
					);
				return await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
					method: request.method,
					url: `${baseUrl}${request.path}`,
					qs: request.qs,
					body: request.body,
					json: true,
					headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
				});
			},
			{ safeToRepeat: request.safeToRepeat, maxUnauthorizedAttempts: 3 },
			throttle,
		);
	} catch (error) {
		throw apiError(this.getNode(), error, {
			itemIndex,
			action: request.action,
			secrets: [credentials.clientSecret, credentials.accessToken],
		});
	}
}
