/** OAuth2 client-credentials tokens: POST /api/oauth/token and Bearer checks. */

import { randomBytes } from 'crypto';
import { jsonReply, type Reply } from './reply';
import type { SandboxOptions } from './options';

interface IssuedToken {
	clientId: string;
	expiresAt: number;
}

export type TokenCheck =
	| { ok: true; clientId: string; token: string }
	| { ok: false; reply: Reply };

export const unauthorized = (message: string): Reply =>
	jsonReply(401, { error: 'unauthorized', message });

export class TokenStore {
	private readonly tokens = new Map<string, IssuedToken>();
	private issued = 0;

	get issuedCount(): number {
		return this.issued;
	}

	issue(clientId: string, lifetimeSec: number, now: number): string {
		this.forgetExpired(now);
		const token = randomBytes(24).toString('base64url');
		this.tokens.set(token, { clientId, expiresAt: now + lifetimeSec * 1000 });
		this.issued++;
		return token;
	}

	/** Issues a token and answers it as the token endpoints do. */
	grant(clientId: string, lifetimeSec: number, now: number): Reply {
		return jsonReply(200, {
			access_token: this.issue(clientId, lifetimeSec, now),
			token_type: 'bearer',
			expires_in: lifetimeSec,
		});
	}

	check(authorization: string | undefined, now: number): TokenCheck {
		// Exactly the documented form, `Bearer <ACCESS_TOKEN>`.
		const match = /^Bearer (\S+)$/.exec(authorization ?? '');
		if (!match)
			return {
				ok: false,
				reply: unauthorized(
					'Missing or malformed Bearer token (send Authorization: Bearer <token>)',
				),
			};
		const token = match[1];
		const issued = this.tokens.get(token);
		if (!issued) return { ok: false, reply: unauthorized('Invalid or revoked access token') };
		if (issued.expiresAt <= now) return { ok: false, reply: unauthorized('Access token expired') };
		return { ok: true, clientId: issued.clientId, token };
	}

	revoke(token: string): void {
		this.tokens.delete(token);
	}

	revokeAll(): void {
		this.tokens.clear();
	}

	/** Issued tokens stay valid; only the count restarts (a reset clears data, not sessions). */
	resetCount(): void {
		this.issued = 0;
	}

	private forgetExpired(now: number): void {
		for (const [token, issued] of this.tokens) {
			if (issued.expiresAt <= now) this.tokens.delete(token);
		}
	}
}

/** The credentials travel as query parameters, with no body, as the platform documents. */
export function handleTokenRequest(
	method: string,
	query: URLSearchParams,
	options: SandboxOptions,
	tokens: TokenStore,
	now: number,
): Reply {
	if (method !== 'POST') return jsonReply(405, { message: 'Use POST' }, { Allow: 'POST' });
	const validClient =
		query.get('grant_type') === 'client_credentials' &&
		query.get('client_id') === options.clientId &&
		query.get('client_secret') === options.clientSecret;
	if (!validClient) {
		return jsonReply(401, {
			error: 'invalid_client',
			message:
				'Client authentication failed: check client_id, client_secret and grant_type=client_credentials',
		});
	}
	return tokens.grant(options.clientId, options.tokenLifetimeSec, now);
}
