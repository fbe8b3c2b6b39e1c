/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import type { INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import type { Handler, Loopback, Received } from '../../harness/loopback';
import { json, startLoopback } from '../../harness/loopback';

export const SECRET = 'hostile-Secret+/=value';

let clients = 0;

/**
 * A loopback server playing the platform: its token endpoint issues `token`; every other
 * request goes to `handler`. Real HTTP, so redirects, timeouts and bodies behave as on a wire.
 */
export async function hostilePlatform(handler: Handler, token = `live-${Date.now()}-token`) {
	const server = await serve((request, response, index) => {
		if (request.url.startsWith('/api/oauth/token')) {
			return json(response, 200, { access_token: token, token_type: 'bearer', expires_in: 3600 });
		}
		return handler(request, response, index);
	});
	return Object.assign(server, { token });
}

/** Requests other than token requests. */
export function apiCalls(server: Loopback): Received[] {
	return server.received.filter((r) => !r.url.startsWith('/api/oauth/token'));
}

/** Fresh credentials for a server (a new client id each time: throttles and tokens are per client). */
export function platformCredentials(server: Loopback, overrides: Record<string, unknown> = {}) {
	clients++;
	return {
		learningPlatformOAuth2Api: {
			baseUrl: server.url,
			clientId: `hostile-${clients}-${Date.now()}`,
			clientSecret: SECRET,
			requestsPerMinute: 60000,
			requestTimeout: 1,
			accessToken: '',
			...overrides,
		},
	};
}

export const upsert = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'course',
	operation: 'upsert',
	externalId: '={{ $json.id }}',
	name: 'Course',
	url: 'https://learn.test/c',
	options,
});

export function accepted(id: string) {
	return {
		message: 'Request accepted',
		data: { id, http_method: 'POST', status: 'initiated', response: {} },
	};
}

/**
 * Every spelling in which a secret could show up: plain (any case), URL-encoded, as a query
 * string spells it (RFC 3986: `! ' ( ) *` encoded too), form-encoded (`~` encoded, a space as
 * `+`), escaped in JSON, and base64.
 */
export function spellings(secret: string): string[] {
	const base64 = Buffer.from(secret).toString('base64');
	const uri = encodeURIComponent(secret);
	return [
		secret,
		secret.toUpperCase(),
		secret.toLowerCase(),
		uri,
		uri.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
		new URLSearchParams({ s: secret }).toString().slice(2),
		JSON.stringify(secret).slice(1, -1),
		base64,
		base64.replace(/=+$/, ''),
	];
}

export function expectNoSecret(everything: string, secrets: string[]): void {
	for (const secret of secrets) {
		for (const form of spellings(secret)) expect(everything).not.toContain(form);
	}
}

const opened: Loopback[] = [];

/** A loopback server closed after the test. */
export async function serve(handler: Handler): Promise<Loopback> {
	const server = await startLoopback(handler);
	opened.push(server);
	return server;
}

/** Real sockets: take nock's interception out of the way, and close every server after each test. */
export function realNetwork(): void {
	beforeAll(() => nock.restore());
	afterEach(async () => {
		await Promise.all(opened.splice(0).map((server) => server.close()));
	});
}
