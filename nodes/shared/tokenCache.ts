/**
 * n8n calls a credential's preAuthentication from every request that finds the token field
 * empty (or that got a 401), so concurrent items would each fetch a token. This keeps one
 * fetch in flight per client and hands its result to everyone who asks meanwhile.
 */
interface CachedToken {
	token: string;
	expiresAt: number;
}

const tokens = new Map<string, CachedToken>();
const inFlight = new Map<string, Promise<CachedToken>>();

// Refresh a little before the advertised expiry so a token never dies mid-request.
const EXPIRY_MARGIN_MS = 30_000;

export async function sharedToken(
	key: string,
	staleToken: string | undefined,
	fetchToken: () => Promise<{ token: string; expiresInSec?: number }>,
): Promise<string> {
	const cached = tokens.get(key);
	const usable = cached && cached.expiresAt > Date.now() && cached.token !== staleToken;
	if (usable) return cached.token;
	let pending = inFlight.get(key);
	if (!pending) {
		pending = fetchToken()
			.then(({ token, expiresInSec }) => {
				const lifetimeMs = (expiresInSec ?? 3600) * 1000;
				const entry = {
					token,
					expiresAt: Date.now() + Math.max(lifetimeMs / 2, lifetimeMs - EXPIRY_MARGIN_MS),
				};
				tokens.set(key, entry);
				return entry;
			})
			.finally(() => inFlight.delete(key));
		inFlight.set(key, pending);
	}
	return (await pending).token;
}

export function forgetTokens(): void {
	tokens.clear();
}
