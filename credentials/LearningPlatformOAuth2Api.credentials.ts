import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	baseUrlOf,
	DEFAULT_REQUEST_TIMEOUT_SEC,
	lmsTokenSource,
	tokenFingerprint,
} from '../nodes/LearningPlatform/transport/credential';
import {
	authorizedFor,
	clientToken,
	originOf,
	redirectTestRules,
	tokenToSend,
} from '../nodes/shared/request/clientCredentials';

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
			displayName: 'Request Timeout (Seconds)',
			name: 'requestTimeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 300 },
			default: DEFAULT_REQUEST_TIMEOUT_SEC,
			description:
				'How long to wait for one answer from the platform before the request counts as failed (and is retried where that is safe). Each operation also has an overall timeout.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// A hash of base URL, client ID and secret: no token is sent once any of them has changed.
			displayName: 'Access Token Issued For',
			name: 'accessTokenFor',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			// When the package renews the token before any request is sent with it (epoch ms).
			displayName: 'Access Token Renewed At',
			name: 'accessTokenExpiresAt',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	// n8n calls this when the saved token is empty, and after a 401 its helper saw (the nodes see
	// their own 401s and renew before their next turn): one token per client, saved with what it
	// was issued for and when it is renewed.
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const issued = await clientToken(this, lmsTokenSource(credentials));
		return { ...issued, accessTokenFor: tokenFingerprint(credentials) };
	}

	// A function, not a template: the token goes only to the base URL and values it was issued
	// for (the live one this process holds first); otherwise none is sent, and the 401 gets a new one.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const token = tokenToSend(lmsTokenSource(credentials));
		return authorizedFor(
			requestOptions,
			originOf(baseUrlOf(credentials)),
			token ? `Bearer ${token}` : undefined,
		);
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/developer/v2/courses.json',
			qs: { offset: 0, limit: 1 },
			// The documents require both headers on every call, reads included.
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			// A redirect is not followed: the token stays with the base URL, and the Test fails.
			disableFollowRedirect: true,
		},
		rules: redirectTestRules('Base URL'),
	};
}
