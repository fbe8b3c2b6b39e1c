import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { openRun } from '../../shared/items/router';
import { clientThrottle, WINDOW_MARGIN_MS } from '../../shared/pacing/throttle';
import { requestTimeoutMs, withFailure } from '../../shared/request/failure';
import { liveClientRedactor } from '../../shared/request/secrets';
import { tokenGate } from '../../shared/request/clientCredentials';
import {
	authorizationProblem,
	DEFAULT_OAUTH2_REQUESTS_PER_MINUTE,
	DEFAULT_REQUEST_TIMEOUT_SEC,
	lrsClientKey,
	lrsRedactor,
	lrsTokenSource,
	normalizedEndpoint,
	XAPI_VERSION,
} from './authorization';
import { CREDENTIAL_TYPE, type LrsRun } from './index';

const LRS_HEADERS = {
	Accept: 'application/json',
	// The platform's documents list these for every call, `charset` as a header of its own.
	'Content-Type': 'application/json',
	charset: 'utf-8',
	'X-Experience-API-Version': XAPI_VERSION,
};

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
			token: oauth2 ? tokenGate(fns, lrsTokenSource(credentials)) : undefined,
			headers: LRS_HEADERS,
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
