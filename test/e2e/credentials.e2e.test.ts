import { randomBytes } from 'node:crypto';

import type { Loopback } from '../../harness/loopback';
import { json, startLoopback } from '../../harness/loopback';
import { N8nSandbox, type ExecutionResult } from '../../harness/n8n';
import { builtPackageDir } from '../../harness/paths';
import { leakedSecrets } from './lib/secrets';
import { manualWorkflow, credentialRef, type NodeSpec } from '../../harness/workflowBuilder';
import type { CredentialJson } from '../../harness/workflowJson';

/*
 * The package's credentials used by n8n's own HTTP Request node (a predefined credential type),
 * inside a real n8n: a server that redirects to another host must not hand that host the
 * credentials, while a redirect within the same address keeps them.
 */

const suffix = randomBytes(6).toString('hex');
const clientSecret = `e2e-redirect-secret-${suffix}`;
const accessToken = `e2e-redirect-token-${suffix}`;
const lrsToken = `Basic e2e-lrs-token-${suffix}`;
const lrsPassword = `e2e-lrs-password-${suffix}`;

let foreign: Loopback;
let platform: Loopback;
let lrs: Loopback;
let n8n: N8nSandbox;

const credentials = {
	lms: { id: 'e2eRedirLms00001', name: 'LMS (redirect)', type: 'learningPlatformOAuth2Api' },
	lrsToken: { id: 'e2eRedirLrsTok01', name: 'LRS token (redirect)', type: 'xApiLrsApi' },
	lrsBasic: { id: 'e2eRedirLrsBas01', name: 'LRS basic (redirect)', type: 'xApiLrsApi' },
} satisfies Record<string, Omit<CredentialJson, 'data'>>;

function httpRequest(
	name: string,
	url: string,
	credential: Omit<CredentialJson, 'data'>,
): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: credential.type,
			options: {},
		},
		credentials: credentialRef(credential as CredentialJson),
	};
}

/** Every spelling of every credential value that must stay with its own host. */
function secrets(): string[] {
	const pair = Buffer.from(`lrs-key:${lrsPassword}`).toString('base64');
	return [clientSecret, accessToken, lrsToken, lrsToken.replace(/^Basic /, ''), lrsPassword, pair];
}

beforeAll(async () => {
	foreign = await startLoopback((_, res) => json(res, 200, { collected: true }));
	const redirect = (res: import('node:http').ServerResponse, location: string) => {
		res.writeHead(302, { location });
		res.end();
	};
	platform = await startLoopback((req, res) => {
		if (req.url.startsWith('/api/oauth/token'))
			return json(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: 3600 });
		if (req.url.startsWith('/away')) return redirect(res, `${foreign.url}/collect`);
		if (req.url.startsWith('/moved')) return redirect(res, '/final');
		return json(res, 200, { data: [], total_count: 0 });
	});
	lrs = await startLoopback((req, res) => {
		if (req.url.startsWith('/xAPI/away')) return redirect(res, `${foreign.url}/collect`);
		return json(res, 200, { statements: [] });
	});
	n8n = await N8nSandbox.create({ customExtensions: [builtPackageDir] });
	await n8n.importCredentials([
		{
			...credentials.lms,
			data: {
				baseUrl: platform.url,
				clientId: 'e2e-redirect-client',
				clientSecret,
				requestsPerMinute: 600,
			},
		},
		{
			...credentials.lrsToken,
			data: { endpoint: `${lrs.url}/xAPI`, authentication: 'token', token: lrsToken },
		},
		{
			...credentials.lrsBasic,
			data: {
				endpoint: `${lrs.url}/xAPI`,
				authentication: 'basic',
				username: 'lrs-key',
				password: lrsPassword,
			},
		},
	]);
});

afterAll(async () => {
	n8n?.dispose();
	await Promise.all([foreign, platform, lrs].map((server) => server?.close()));
});

async function execute(workflow: ReturnType<typeof manualWorkflow>): Promise<ExecutionResult> {
	const [id] = await n8n.importWorkflows([workflow]);
	return await n8n.execute(id);
}

describe("the HTTP Request node with this package's credentials", () => {
	it('a redirect to another host reaches it without the LMS token or the LRS credentials', async () => {
		const execution = await execute(
			manualWorkflow('HTTP Request: redirected to another host', [
				[
					httpRequest('LMS', `${platform.url}/away`, credentials.lms),
					httpRequest('LRS token', `${lrs.url}/xAPI/away`, credentials.lrsToken),
					httpRequest('LRS basic', `${lrs.url}/xAPI/away`, credentials.lrsBasic),
				],
			]),
		);

		// Each request reached its own host with its credentials, was redirected, and arrived bare.
		const own = [...platform.received, ...lrs.received].filter((r) => r.url.includes('/away'));
		expect(own).toHaveLength(3);
		for (const request of own) expect(request.headers.authorization).toBeDefined();
		expect(foreign.received).toHaveLength(3);
		for (const request of foreign.received) expect(request.headers.authorization).toBeUndefined();
		expect(leakedSecrets(JSON.stringify(foreign.received), secrets())).toEqual([]);
		expect(execution.ok).toBe(true);
	});

	it('a redirect within the same address keeps the token', async () => {
		const before = platform.received.length;
		const execution = await execute(
			manualWorkflow('HTTP Request: redirected on the same host', [
				httpRequest('LMS', `${platform.url}/moved`, credentials.lms),
			]),
		);

		expect(execution.ok).toBe(true);
		const calls = platform.received
			.slice(before)
			.filter((r) => !r.url.startsWith('/api/oauth/token'));
		expect(calls.map((r) => r.url)).toEqual(['/moved', '/final']);
		expect(calls.map((r) => r.headers.authorization)).toEqual([
			`Bearer ${accessToken}`,
			`Bearer ${accessToken}`,
		]);
	});

	it('n8n printed no credential', () => {
		const printed = JSON.stringify(n8n.history.map((call) => [call.stdout, call.stderr]));
		expect(leakedSecrets(printed, secrets())).toEqual([]);
	});
});
