/** The only xAPI version this package speaks; every record store call names it. */
export const XAPI_VERSION = '1.0.3';

/** The Authorization value: the token exactly as given (outer spaces aside), or HTTP Basic. */
export function authorizationHeader(credentials: {
	authentication?: unknown;
	token?: unknown;
	username?: unknown;
	password?: unknown;
}): string {
	if (credentials.authentication === 'basic') {
		const pair = `${String(credentials.username ?? '')}:${String(credentials.password ?? '')}`;
		return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
	}
	return String(credentials.token ?? '').trim();
}
