import nock from 'nock';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';

export interface SandboxFixture {
	/** The running sandbox (from the file's first test on). */
	readonly sandbox: Sandbox;
	/** A credential for the sandbox's client at 60,000 requests a minute; `overrides` are added to it. */
	credentials(overrides?: ICredentialDataDecryptedObject): {
		learningPlatformOAuth2Api: ICredentialDataDecryptedObject;
	};
}

/**
 * The project's sandbox for a test file, on real sockets (nock out of the way): started before
 * the file's first test (transactions finish after 20 ms, no server-side throttle), emptied
 * before each test, closed after the last.
 */
export function useSandbox(): SandboxFixture {
	let running: Sandbox | undefined;
	const sandbox = (): Sandbox => {
		if (!running) throw new Error('The sandbox starts in beforeAll');
		return running;
	};

	beforeAll(async () => {
		nock.restore();
		running = await startSandbox({ transactionDelayMs: 20, rateLimitPerMinute: 0 });
	});
	afterAll(async () => running?.close());
	beforeEach(() => sandbox().reset());

	return {
		get sandbox() {
			return sandbox();
		},
		credentials(overrides = {}) {
			return {
				learningPlatformOAuth2Api: {
					baseUrl: sandbox().url,
					clientId: sandbox().clientId,
					clientSecret: sandbox().clientSecret,
					requestsPerMinute: 60000,
					accessToken: '',
					...overrides,
				},
			};
		},
	};
}
