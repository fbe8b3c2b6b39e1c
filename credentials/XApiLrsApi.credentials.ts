import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	DEFAULT_REQUEST_TIMEOUT_SEC,
	withLrsAuthorization,
	XAPI_VERSION,
} from '../nodes/XApi/transport/authorization';
import { redirectTestRules } from '../nodes/shared/request/origin';

/**
 * The answers that fail the credential test: every status from 300 on except 403. n8n fails a
 * test whose request throws, and reads `except` as the statuses that still throw although HTTP
 * errors are otherwise ignored.
 */
const TEST_FAILURE_STATUSES: number[] = Array.from({ length: 300 }, (_, i) => 300 + i).filter(
	(status) => status !== 403,
);

export class XApiLrsApi implements ICredentialType {
	name = 'xApiLrsApi';

	displayName = 'xAPI Learning Record Store API';

	icon: Icon = {
		light: 'file:../nodes/XApi/xApi.svg',
		dark: 'file:../nodes/XApi/xApi.dark.svg',
	};

	documentationUrl =
		'https://github.com/learning-platform-n8n/n8n-nodes-learning-platform#xapi-learning-record-store-api-xapilrsapi';

	properties: INodeProperties[] = [
		{
			displayName:
				"For the platform's own record store, the platform's support team provides the record store address and the token. For any other learning record store, use the xAPI endpoint and the Basic credentials its administrator gives you.",
			name: 'setupNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'xAPI Endpoint',
			name: 'endpoint',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://lrs.example.com/data/xAPI',
			description:
				'The xAPI base address: statements live at {endpoint}/statements. For the platform\'s record store this is the record store address followed by "/data/xAPI".',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{
					name: 'Token',
					value: 'token',
					description:
						"The value the platform's support team gives you, sent as the Authorization header exactly as given",
				},
				{
					name: 'Basic Auth',
					value: 'basic',
					description: 'A username (key) and password (secret), as most other record stores use',
				},
			],
			default: 'token',
		},
		{
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Sent verbatim as the Authorization header (if the support team gave you "Basic …", paste all of it)',
			displayOptions: { show: { authentication: ['token'] } },
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			required: true,
			default: '',
			description: 'Also called the key or client ID of the record store',
			displayOptions: { show: { authentication: ['basic'] } },
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Also called the secret of the record store',
			displayOptions: { show: { authentication: ['basic'] } },
		},
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'requestTimeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 600 },
			default: DEFAULT_REQUEST_TIMEOUT_SEC,
			description:
				'How long to wait for one answer from the record store before the request counts as failed (and is retried where that is safe)',
		},
	];

	// A function rather than a generic template: Basic needs base64 of UTF-8 text, which
	// expressions cannot do for every character, and the credentials go only to the record
	// store's own host.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withLrsAuthorization(credentials, requestOptions);
	}

	// Test asks for one statement. A token that may only record statements is still a valid
	// credential: the store knows it but will not let it read (403). So 403 passes, as 2xx does;
	// every other status fails, 401 and 404 saying what to check.
	test: ICredentialTestRequest = {
		request: {
			// The endpoint as the nodes use it: outer spaces, trailing slashes and a pasted "/statements" dropped.
			baseURL:
				'={{ String($credentials.endpoint).trim().replace(/\\/+$/, "").replace(/\\/statements$/i, "") }}',
			url: '/statements',
			qs: { limit: 1 },
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
				charset: 'utf-8',
				'X-Experience-API-Version': XAPI_VERSION,
			},
			ignoreHttpStatusErrors: { ignore: true, except: TEST_FAILURE_STATUSES },
			// A redirect is not followed: the token or password stays with the endpoint.
			disableFollowRedirect: true,
		},
		rules: [
			...redirectTestRules('xAPI Endpoint'),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The record store refused the credentials: check the token / username and password',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No xAPI statements resource at this endpoint: the endpoint usually ends with /xAPI, e.g. https://lrs.example.com/data/xAPI',
				},
			},
		],
	};
}
