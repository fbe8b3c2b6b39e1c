import type { IDataObject } from 'n8n-workflow';

import { clientKey } from '../../shared/request/secrets';

export const CREDENTIAL_TYPE = 'learningPlatformOAuth2Api';

/** One answer may take this long when the credential does not say. */
export const DEFAULT_REQUEST_TIMEOUT_SEC = 30;

export interface LmsCredentials extends IDataObject {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	requestsPerMinute: number;
	requestTimeout?: number;
	accessToken?: string;
}

export function baseUrlOf(credentials: { baseUrl?: unknown }): string {
	return String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** The credential's client, as the token request, the masks and the throttle know it. */
export function lmsClientKey(credentials: { baseUrl?: unknown; clientId?: unknown }): string {
	return clientKey(baseUrlOf(credentials), String(credentials.clientId ?? ''));
}
