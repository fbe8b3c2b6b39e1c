import { NodeOperationError } from 'n8n-workflow';

import { openRun } from '../../shared/items/router';
import { clientThrottle, concurrencyFor } from '../../shared/pacing/throttle';
import { clientCompletion } from '../../shared/pacing/completion';
import type { RequestingFunctions } from '../../shared/request/call';
import { originOf, tokenGate } from '../../shared/request/clientCredentials';
import { liveClientRedactor } from '../../shared/request/secrets';
import { withFailure } from '../../shared/request/failure';
import type { LmsCredentials } from './credential';
import { baseUrlOf, CREDENTIAL_TYPE, lmsClientKey, lmsTokenSource } from './credential';
import type { LmsRun } from './index';
import { lmsRedactor } from './index';

/** The credential's own rate; the platform allows 300. */
const requestsPerMinute = (credentials: LmsCredentials) =>
	Number(credentials.requestsPerMinute) || 300;

/** Credentials of one client id share its throttle: the lower rate wins, said in the hints. */
export async function openLmsRun(fns: RequestingFunctions): Promise<LmsRun> {
	const credentials = await fns.getCredentials<LmsCredentials>(CREDENTIAL_TYPE);
	const baseUrl = baseUrlOf(credentials);
	const origin = originOf(baseUrl);
	if (!origin) {
		throw lmsRedactor(credentials).error(
			withFailure(
				new NodeOperationError(
					fns.getNode(),
					`The credential's Base URL is not an http(s) address: "${baseUrl}"`,
					{ description: 'Set it to your deployment, e.g. https://lms.example.com' },
				),
				{ cause: 'configuration-invalid' },
			),
		);
	}
	const asked = requestsPerMinute(credentials);
	const credentialId = fns.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? 'unnamed';
	const key = lmsClientKey(credentials);
	const outputMasks = liveClientRedactor(key, credentials.clientSecret, credentials.accessToken);
	const shared = clientThrottle(key, credentialId, asked);
	if (shared.requestsPerMinute < asked && 'addExecutionHints' in fns) {
		fns.addExecutionHints({
			message: `Requests per Minute: another credential with client ID "${credentials.clientId}" asks for ${shared.requestsPerMinute}, so this one is paced at ${shared.requestsPerMinute} too (the lower rate wins: they share the platform's budget)`,
			location: 'outputPane',
		});
	}
	return openRun(
		fns,
		{ errorMasks: () => lmsRedactor(credentials), outputMasks },
		{
			credentials,
			baseUrl,
			origin,
			throttle: shared.throttle,
			catalog: {},
			completion: clientCompletion(key),
			token: tokenGate(fns, lmsTokenSource(credentials)),
		},
	);
}

export function lmsConcurrency(run: LmsRun): number {
	return concurrencyFor(requestsPerMinute(run.credentials));
}
