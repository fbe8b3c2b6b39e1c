import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { createHash } from 'crypto';

import { redactText } from '../nodes/shared/redact';
import { sharedToken } from '../nodes/shared/tokenCache';
import { describeHttpFailure, networkWords } from '../nodes/shared/httpFailure';

export class LearningPlatformOAuth2Api implements ICredentialType {
	name = 'learningPlatformOAuth2Api';

	displayName = 'Learning Platform OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/LearningPlatform/learningPlatform.svg',
		dark: 'file:../nodes/LearningPlatform/learningPlatform.dark.svg',
	};

	documentationUrl =
		'https://github.com/learning-platform-n8n/n8n-nodes-learning-platform#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				"An organization admin creates these in the platform's admin portal: LMS integrations → a source of the LMS API type → OAuth2 Apps → create a client ID and secret for that source.",
			name: 'setupNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://lms.example.com',
			description:
				'The address of your deployment (US, EU, second US or preview: ask your admin or support), without a trailing path',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'From the OAuth2 App of the LMS API source',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description:
				'Client-side throttle for this client ID, shared by every workflow in this n8n process. The platform allows 300. In queue mode with W workers, set 300 divided by W.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	// n8n calls this when the access token is empty, and once more after a 401.
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const baseUrl = normalizeBaseUrl(credentials.baseUrl);
		const clientId = String(credentials.clientId ?? '');
		const clientSecret = String(credentials.clientSecret ?? '');
		const stale = typeof credentials.accessToken === 'string' ? credentials.accessToken : undefined;
		const accessToken = await sharedToken(
			tokenKey(baseUrl, clientId, clientSecret),
			stale || undefined,
			async () => {
				try {
					const response = (await this.helpers.httpRequest({
						method: 'POST',
						url: `${baseUrl}/api/oauth/token`,
						qs: {
							client_id: clientId,
							client_secret: clientSecret,
							grant_type: 'client_credentials',
						},
						headers: { Accept: 'application/json' },
						json: true,
					})) as { access_token?: string; expires_in?: number };
					if (!response?.access_token) {
						throw new Error('the token endpoint answered without an access_token');
					}
					return {
						token: response.access_token,
						expiresInSec: Number(response.expires_in) || undefined,
					};
				} catch (error) {
					throw tokenError(error, clientSecret);
				}
			},
		);
		return { accessToken };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/developer/v2/courses.json',
			qs: { offset: 0, limit: 1 },
			headers: { Accept: 'application/json' },
		},
	};
}

// The secret is part of the key (hashed) so that a corrected or wrong secret is never
// answered with a token fetched for another one.
function tokenKey(baseUrl: string, clientId: string, clientSecret: string): string {
	const secretHash = createHash('sha256').update(clientSecret).digest('hex').slice(0, 16);
	return `${baseUrl}|${clientId}|${secretHash}`;
}

function normalizeBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/**
 * The token URL carries the client secret in its query string, and HTTP errors quote their
 * URL: build a fresh error from the status and the redacted API message only.
 */
function tokenError(error: unknown, clientSecret: string): Error {
	const failure = describeHttpFailure(error);
	const body = failure.body as { message?: unknown; error?: unknown } | undefined;
	const apiMessage =
		typeof body?.message === 'string'
			? body.message
			: typeof body?.error === 'string'
				? body.error
				: '';
	const reason = failure.status
		? `HTTP ${failure.status}${apiMessage ? `: ${apiMessage}` : ''}${failure.status === 401 ? ' (check the client ID and secret)' : ''}`
		: failure.networkCode
			? networkWords(failure.networkCode)
			: failure.message;
	return new Error(
		redactText(`Could not get an access token from the platform (${reason})`, [clientSecret]),
	);
}
