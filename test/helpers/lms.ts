import nock from 'nock';

import { tokenFingerprint } from '../../nodes/LearningPlatform/transport/credential';

export const BASE_URL = 'https://lms.test';
export const CLIENT_SECRET = 's3cr3t-Value+/=';
export const TOKEN = 'tok-123';

let clientCounter = 0;

/** Fresh credentials per test: the throttle and token cache are per client, process-wide. */
export function lmsCredentials(overrides: Record<string, unknown> = {}) {
	clientCounter++;
	return {
		learningPlatformOAuth2Api: {
			baseUrl: BASE_URL,
			clientId: `client-${clientCounter}-${Date.now()}`,
			clientSecret: CLIENT_SECRET,
			requestsPerMinute: 60000,
			accessToken: '',
			...overrides,
		},
	};
}

/** The token endpoint, answering `times` times. */
export function mockToken(clientId: string, token = TOKEN, times = 1) {
	return nock(BASE_URL)
		.post('/api/oauth/token')
		.query({ client_id: clientId, client_secret: CLIENT_SECRET, grant_type: 'client_credentials' })
		.times(times)
		.reply(200, { access_token: token, token_type: 'bearer', expires_in: 3600 });
}

export function accepted(id: string) {
	return {
		message: 'Request accepted',
		data: { id, http_method: 'POST', status: 'initiated', response: {} },
	};
}

export function transaction(id: string, status: string, message = 'done') {
	return { response: 'success', data: { id, http_method: 'POST', status, response: { message } } };
}

/** Fresh credentials whose first token request is answered. */
export function credentialsWithToken(overrides: Record<string, unknown> = {}) {
	const credentials = lmsCredentials(overrides);
	mockToken(credentials.learningPlatformOAuth2Api.clientId);
	return credentials;
}

/** Every LMS test starts with no pending mocks and no real network. */
export function isolateNetwork() {
	beforeEach(() => {
		nock.disableNetConnect();
		nock.cleanAll();
	});
}

/** Credentials holding a token already issued for their base URL, client id and secret. */
export function credentialsWithIssuedToken(token: string, overrides: Record<string, unknown> = {}) {
	const credentials = lmsCredentials({ accessToken: token, ...overrides });
	const data = credentials.learningPlatformOAuth2Api as Record<string, unknown>;
	data.accessTokenFor = tokenFingerprint(data as never);
	// As n8n saves it: with when the package renews it (an hour ahead here).
	data.accessTokenExpiresAt ??= Date.now() + 3_600_000;
	return credentials;
}
