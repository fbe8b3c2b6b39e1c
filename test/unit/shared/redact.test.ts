import { redactText, redactValue } from '../../../nodes/shared/redact';

describe('redaction', () => {
	test('masks secrets in every spelling a URL could carry them', () => {
		const secret = 'a b+c/d=';
		const text = `POST https://lms.test/api/oauth/token?client_id=x&client_secret=${encodeURIComponent(secret)} raw ${secret} plus a+b%2Bc%2Fd%3D`;
		const out = redactText(text, [secret]);
		expect(out).not.toContain(secret);
		expect(out).not.toContain(encodeURIComponent(secret));
		expect(out).toContain('client_id=x');
		expect(out).toContain('client_secret=***');
	});

	test('masks bearer tokens and sensitive query parameters without knowing them', () => {
		expect(redactText('Authorization: Bearer abc.def-123')).toBe('Authorization: Bearer ***');
		expect(redactText('https://x.test/?access_token=zzz&b=1')).toBe('https://x.test/?access_token=***&b=1');
	});

	test('redacts nested values and masks secret-named keys', () => {
		const out = redactValue({ a: ['the token is tok-9'], headers: { authorization: 'Basic Zm9v' }, n: 3 }, ['tok-9']);
		expect(out).toEqual({ a: ['the token is ***'], headers: { authorization: '***' }, n: 3 });
	});
});
