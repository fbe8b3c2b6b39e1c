import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z, ZodTypeAny } from 'zod';

import type { ClientThrottle } from '../../shared/clients';
import { clientKey, clientRedactor, clientThrottle } from '../../shared/clients';
import { Deadline } from '../../shared/deadline';
import { apiError } from '../../shared/errors';
import { callApi } from '../../shared/http';
import type { Redactor } from '../../shared/redact';
import { originOf } from '../../shared/origin';
import { concurrencyFor } from '../../shared/throttle';
import { documentedAnswer } from '../../shared/validation';

export const CREDENTIAL_TYPE = 'learningPlatformOAuth2Api';

/** One answer may take this long when the credential does not say. */
export const DEFAULT_REQUEST_TIMEOUT_SEC = 30;

/** Reads (a transaction, a catalog walk) end by this when the operation gives no timeout. */
export const READ_DEADLINE_MS = 5 * 60_000;

export interface LmsCredentials extends IDataObject {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	requestsPerMinute: number;
	requestTimeout?: number;
	accessToken?: string;
}

export interface LmsRequest<S extends ZodTypeAny = ZodTypeAny> {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Upserts keyed by an external id and reads may be repeated after a 5xx or a dropped connection. */
	safeToRepeat: boolean;
	/** What the user asked for, for error messages ("Upserting course X"). */
	action: string;
	deadline: Deadline;
	/** The documented shape of the answer, and what to call it in an error. */
	answer: { schema: S; is: string };
}

/** The base URL as the credential gives it, without trailing slashes. */
export function baseUrlOf(credentials: { baseUrl?: unknown }): string {
	return String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** What one execution needs to talk to the platform, worked out once. */
interface LmsSession {
	credentials: LmsCredentials;
	baseUrl: string;
	origin?: string;
	throttle: ClientThrottle['throttle'];
}

// One execution's credentials do not change while it runs: read (and decrypt) them once.
const sessionByExecution = new WeakMap<IExecuteFunctions, Promise<LmsSession>>();

async function lmsSession(this: IExecuteFunctions, itemIndex = 0): Promise<LmsSession> {
	let session = sessionByExecution.get(this);
	if (!session) {
		session = this.getCredentials<LmsCredentials>(CREDENTIAL_TYPE, itemIndex).then(
			(credentials) => {
				const baseUrl = baseUrlOf(credentials);
				return {
					credentials,
					baseUrl,
					origin: originOf(baseUrl),
					throttle: throttleOf(this, credentials).throttle,
				};
			},
		);
		sessionByExecution.set(this, session);
	}
	return await session;
}

export async function lmsCredentials(
	this: IExecuteFunctions,
	itemIndex = 0,
): Promise<LmsCredentials> {
	return (await lmsSession.call(this, itemIndex)).credentials;
}

/**
 * Once an item has failed and the run will stop (Continue On Fail off), requests of other
 * items still waiting for a throttle slot must not go out: the run reports that items not yet
 * started were not sent.
 */
const stoppedRuns = new WeakSet<IExecuteFunctions>();

export function stopSending(this: IExecuteFunctions): void {
	stoppedRuns.add(this);
}

/** How many items the router keeps in flight for this credential's throttle. */
export function lmsConcurrency(credentials: LmsCredentials): number {
	return concurrencyFor(Number(credentials.requestsPerMinute) || 300);
}

/** A deadline for one item's operation, ending early if the execution is cancelled. */
export function operationDeadline(this: IExecuteFunctions, budgetMs: number): Deadline {
	return new Deadline(budgetMs, this.getExecutionCancelSignal?.());
}

/** Everything to mask for this credential: its secret and every token issued for its client. */
export function lmsRedactor(credentials: LmsCredentials): Redactor {
	return clientRedactor(
		clientKey(baseUrlOf(credentials), String(credentials.clientId ?? '')),
		credentials.clientSecret,
		credentials.accessToken,
	);
}

/**
 * The client's throttle. When another credential with the same client id asks for a lower
 * rate, the lower one is used, and the node says so in the execution's hints.
 */
function throttleOf(context: IExecuteFunctions, credentials: LmsCredentials): ClientThrottle {
	const asked = Number(credentials.requestsPerMinute) || 300;
	const credentialId = context.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? 'unnamed';
	const shared = clientThrottle(
		clientKey(baseUrlOf(credentials), String(credentials.clientId ?? '')),
		credentialId,
		asked,
	);
	if (shared.requestsPerMinute < asked) {
		context.addExecutionHints?.({
			message: `Requests per Minute: another credential with client ID "${credentials.clientId}" asks for ${shared.requestsPerMinute}, so this one is paced at ${shared.requestsPerMinute} too (the lower rate wins: they share the platform's budget)`,
			location: 'outputPane',
		});
	}
	return shared;
}

/**
 * One API call: throttled per client, bounded by its deadline, retried as its safety allows,
 * redirects kept on the platform's host, the answer checked against its documented shape,
 * errors masked.
 */
export async function lmsRequest<S extends ZodTypeAny>(
	this: IExecuteFunctions,
	itemIndex: number,
	request: LmsRequest<S>,
): Promise<z.output<S>> {
	const { credentials, baseUrl, origin, throttle } = await lmsSession.call(this, itemIndex);
	const redactor = lmsRedactor(credentials);
	if (!origin) {
		throw new NodeOperationError(
			this.getNode(),
			`The credential's Base URL is not an http(s) address: "${redactor.text(baseUrl)}"`,
			{ itemIndex, description: 'Set it to your deployment, e.g. https://lms.example.com' },
		);
	}
	try {
		const answer = await callApi(this, {
			credentialType: CREDENTIAL_TYPE,
			method: request.method,
			url: `${baseUrl}${request.path}`,
			qs: request.qs,
			body: request.body,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			origin,
			requestTimeoutMs: requestTimeoutMs(credentials),
			deadline: request.deadline,
			retry: { safeToRepeat: request.safeToRepeat, maxUnauthorizedAttempts: 3 },
			throttle,
			stopped: () => stoppedRuns.has(this),
		});
		return documentedAnswer(answer, request.answer.schema, request.answer.is);
	} catch (error) {
		// The live token may have been issued during this call: mask with what is known now.
		throw apiError(this.getNode(), error, {
			itemIndex,
			action: request.action,
			redactor: lmsRedactor(credentials),
		});
	}
}

export function requestTimeoutMs(credentials: { requestTimeout?: unknown }): number {
	const seconds = Number(credentials.requestTimeout);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_REQUEST_TIMEOUT_SEC) * 1000;
}
