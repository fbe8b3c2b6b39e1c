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
	DEFAULT_OAUTH2_REQUESTS_PER_MINUTE,
	DEFAULT_REQUEST_TIMEOUT_SEC,
	DEFAULT_SCOPE,
	issueLrsAccessToken,
	withLrsAuthorization,
	XAPI_VERSION,
} from '../nodes/XApi/transport/authorization';
import { redirectTestRules, tokenFormExpression } from '../nodes/shared/request/clientCredentials';

/** Every status from 300 on except 403; n8n reads `except` as the statuses that still throw. */
const TEST_FAILURE_STATUSES: number[] = Array.from({ length: 300 }, (_, i) => 300 + i).filter(
	(status) => status !== 403,
);

/** Every status from 300 on: for OAuth2 the Test is the token request, and only a token passes. */
const TOKEN_TEST_FAILURE_STATUSES: number[] = Array.from({ length: 300 }, (_, i) => 300 + i);

/** In the Test's expressions: the endpoint as the nodes use it. */
const ENDPOINT_EXPRESSION =
	'String($credentials.endpoint).trim().replace(/\\/+$/, "").replace(/\\/statements$/i, "")';

const IS_OAUTH2 = '$credentials.authentication === "oauth2"';

const TOKEN_URL_EXPRESSION = `(String($credentials.tokenUrl || "").trim() || (${ENDPOINT_EXPRESSION} + "/oauth2/token"))`;

const TOKEN_BODY_EXPRESSION = tokenFormExpression({
	clientId: 'String($credentials.clientId || "").trim()',
	clientSecret: 'String($credentials.clientSecret || "")',
	scope: `String($credentials.scope || "").trim() || "${DEFAULT_SCOPE}"`,
});

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
				"For the platform's push endpoint, an organization admin creates a client ID and secret under Integrations → OAuth 2 Apps, and the endpoint is the platform's address followed by /api/lrs/v1/xapi. For the platform's record store, the support team provides the address and a token. For any other learning record store, use its xAPI endpoint and the Basic credentials its administrator gives you.",
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
				'The xAPI base address: statements live at {endpoint}/statements. For the platform\'s push endpoint (OAuth2): the platform\'s address followed by "/api/lrs/v1/xapi". For the platform\'s record store (Token): the record store address followed by "/data/xAPI".',
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
				{
					name: 'OAuth2 (Client Credentials)',
					value: 'oauth2',
					description:
						"The platform's push endpoint: a client ID and secret from Integrations → OAuth 2 Apps",
				},
			],
			default: 'token',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			required: true,
			default: '',
			description: 'From the OAuth 2 App (Integrations → OAuth 2 Apps in the admin UI)',
			displayOptions: { show: { authentication: ['oauth2'] } },
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Shown in the OAuth 2 Apps table when hovering over the client ID',
			displayOptions: { show: { authentication: ['oauth2'] } },
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: DEFAULT_SCOPE,
			description: 'The scope asked for with the token; the platform documents xapi:write',
			displayOptions: { show: { authentication: ['oauth2'] } },
		},
		{
			displayName: 'Token URL',
			name: 'tokenUrl',
			type: 'string',
			default: '',
			placeholder: 'https://platform.example.com/api/lrs/v1/xapi/oauth2/token',
			description:
				'Where to get the access token. Leave empty for {endpoint}/oauth2/token, where the platform has it.',
			displayOptions: { show: { authentication: ['oauth2'] } },
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
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_OAUTH2_REQUESTS_PER_MINUTE,
			description:
				'Client-side pacing for this endpoint and client ID, shared by every workflow in this n8n process. The platform allows 10 requests per 10 seconds per organization (60).',
			displayOptions: { show: { authentication: ['oauth2'] } },
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Client-side pacing for this record store and credential, shared by every workflow in this n8n process. 0: no limit (429 answers are still waited out).',
			displayOptions: { show: { authentication: ['token', 'basic'] } },
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
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// A hash of endpoint, token URL, client, secret and scope: no token is sent once they change.
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

	// n8n calls this when the access token is empty, and after a 401 its helper saw; only OAuth2
	// has a token.
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await issueLrsAccessToken.call(this, credentials);
	}

	// A function: expressions cannot base64 every UTF-8 character; credentials go only to their host.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withLrsAuthorization(credentials, requestOptions);
	}

	// Token/Basic: Test reads one statement; 403 passes (a write-only token is valid), the rest fail.
	// OAuth2: the push endpoint has nothing to read, so Test asks for a token (n8n fetched one already).
	test: ICredentialTestRequest = {
		request: {
			method: `={{ ${IS_OAUTH2} ? "POST" : "GET" }}` as 'GET',
			baseURL: `={{ ${IS_OAUTH2} ? ${TOKEN_URL_EXPRESSION} : ${ENDPOINT_EXPRESSION} }}`,
			url: `={{ ${IS_OAUTH2} ? "" : "/statements" }}`,
			qs: `={{ ${IS_OAUTH2} ? {} : { limit: 1 } }}` as unknown as IHttpRequestOptions['qs'],
			body: `={{ ${IS_OAUTH2} ? ${TOKEN_BODY_EXPRESSION} : undefined }}`,
			headers:
				`={{ ${IS_OAUTH2} ? { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" } : { Accept: "application/json", "Content-Type": "application/json", charset: "utf-8", "X-Experience-API-Version": "${XAPI_VERSION}" } }}` as unknown as IHttpRequestOptions['headers'],
			// No redirect is followed: the token, password or client secret stays with its host.
			disableFollowRedirect: true,
			ignoreHttpStatusErrors:
				`={{ { ignore: true, except: ${IS_OAUTH2} ? ${JSON.stringify(TOKEN_TEST_FAILURE_STATUSES)} : ${JSON.stringify(TEST_FAILURE_STATUSES)} } }}` as unknown as IHttpRequestOptions['ignoreHttpStatusErrors'],
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
