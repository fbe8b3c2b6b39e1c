/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import {
	authorizationHeader,
	oauth2FingerprintOf,
	tokenUrlOf,
	withLrsAuthorization,
} from '../../../../nodes/XApi/transport/authorization';
import {
	tokenFormExpression,
	tokenFromAnswer,
} from '../../../../nodes/shared/request/clientCredentials';
import { pacedRate } from '../../../../nodes/XApi/transport/run';

const TOKEN = 'tok-3f9a8b7c6d5e4f3a2b1c';

describe('the token answer', () => {
	test('the documented answer gives the token and its lifetime', () => {
		const answer = JSON.stringify({ access_token: TOKEN, token_type: 'bearer', expires_in: 3600 });
		expect(tokenFromAnswer(200, 'application/json', answer)).toEqual({
			token: TOKEN,
			expiresInSec: 3600,
		});
	});

	test.each([
		['another token type', { access_token: TOKEN, token_type: 'mac' }, /token_type/],
		['no token', { token_type: 'bearer' }, /access_token is missing/],
		['a token that is not text', { access_token: 42 }, /access_token is missing or not text/],
		['a token with spaces', { access_token: `${TOKEN} x` }, /cannot be sent in an HTTP header/],
		[
			'a token with a line break',
			{ access_token: `${TOKEN}\r\nX: y` },
			/cannot be sent in an HTTP header/,
		],
		[
			'a token with a non-ASCII character',
			{ access_token: `${TOKEN}€` },
			/cannot be sent in an HTTP header/,
		],
		['a lifetime that is not positive', { access_token: TOKEN, expires_in: -5 }, /expires_in/],
		['a list', [TOKEN], /not a JSON object/],
	])('%s is refused, naming the field and never quoting the answer', (_, body, words) => {
		const outcome = tokenFromAnswer(200, 'application/json', JSON.stringify(body));
		expect('problem' in outcome && outcome.problem).toMatch(words);
		expect(JSON.stringify(outcome)).not.toContain(TOKEN);
	});

	test('an answer that is not JSON is refused without quoting it (it may hold the token)', () => {
		const outcome = tokenFromAnswer(
			200,
			'application/x-www-form-urlencoded',
			`access_token=${TOKEN}&token_type=bearer`,
		);
		expect(outcome).toEqual({
			problem: 'unexpected answer (HTTP 200, application/x-www-form-urlencoded): not JSON',
		});
	});
});

test("the credential Test's token request body is the documented form, the secret encoded", () => {
	const expression = tokenFormExpression({
		clientId: 'values.id',
		clientSecret: 'values.secret',
		scope: 'values.scope',
	});
	const body = new Function('values', `return ${expression}`)({
		id: 'app 1',
		secret: 's/e+c=r&t',
		scope: 'xapi:write',
	}) as string;
	expect(Object.fromEntries(new URLSearchParams(body))).toEqual({
		grant_type: 'client_credentials',
		scope: 'xapi:write',
		client_id: 'app 1',
		client_secret: 's/e+c=r&t',
	});
});

test('the token URL defaults to {endpoint}/oauth2/token', () => {
	expect(tokenUrlOf({ endpoint: ' https://lms.example.com/api/lrs/v1/xapi/statements/ ' })).toBe(
		'https://lms.example.com/api/lrs/v1/xapi/oauth2/token',
	);
	expect(
		tokenUrlOf({
			endpoint: 'https://lms.example.com/api/lrs/v1/xapi',
			tokenUrl: 'https://auth.example.com/t',
		}),
	).toBe('https://auth.example.com/t');
});

describe('the access token is bound to the values it was issued for', () => {
	const credentials = {
		endpoint: 'https://lms.example.com/api/lrs/v1/xapi',
		authentication: 'oauth2',
		clientId: 'app',
		clientSecret: 'secret-1',
		scope: 'xapi:write',
		tokenUrl: '',
		accessToken: TOKEN,
	};
	const issued = { ...credentials, accessTokenFor: oauth2FingerprintOf(credentials) };

	test('sent as Bearer while they are unchanged', () => {
		expect(authorizationHeader(issued)).toBe(`Bearer ${TOKEN}`);
	});

	test.each([
		['the secret', { clientSecret: 'secret-2' }],
		['the client ID', { clientId: 'other' }],
		['the scope', { scope: 'xapi:write xapi:read' }],
		['the token URL', { tokenUrl: 'https://elsewhere.example.com/token' }],
		['the endpoint', { endpoint: 'https://other.example.com/api/lrs/v1/xapi' }],
	])('not sent once %s changed', (_, change) => {
		const changed = { ...issued, ...change };
		expect(authorizationHeader(changed)).toBe('');
		const options = withLrsAuthorization(changed, { url: `${changed.endpoint}/statements` });
		expect(options.headers).toEqual({ 'X-Experience-API-Version': '1.0.3' });
	});
});

test('pacing keeps any 10 s within the window share even for a request 250 ms early', () => {
	for (const perMinute of [6, 30, 60, 120]) {
		const spacingMs = 60_000 / pacedRate(perMinute);
		const perWindow = (perMinute * 10) / 60;
		// The request `perWindow` places after another arrives at least 10 s + 250 ms later.
		expect(spacingMs * perWindow).toBeGreaterThanOrEqual(10_250);
	}
	expect(pacedRate(60)).toBe(58);
});
