import { Redactor } from '../../../../nodes/shared/request/secrets';

describe('redaction', () => {
	test('masks secrets in every spelling a URL could carry them', () => {
		const secret = 'a b+c/d=';
		const text = `POST https://lms.test/api/oauth/token?client_id=x&client_secret=${encodeURIComponent(secret)} raw ${secret} plus a+b%2Bc%2Fd%3D`;
		const out = new Redactor([secret]).text(text);
		expect(out).not.toContain(secret);
		expect(out).not.toContain(encodeURIComponent(secret));
		expect(out).toContain('client_id=x');
		expect(out).toContain('client_secret=***');
	});

	test('masks a secret as a query string, a form body and JSON spell it', () => {
		const secret = "it's (a) ~secret! *x*";
		const uri = encodeURIComponent(secret);
		const spelled = [
			uri,
			uri.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
			new URLSearchParams({ s: secret }).toString().slice(2),
			JSON.stringify(secret).slice(1, -1),
		];
		for (const form of spelled) {
			expect(new Redactor([secret]).text(`client_secret=${form} said ${form}`)).toBe(
				'client_secret=*** said ***',
			);
		}
	});

	test('masks bearer tokens and sensitive query parameters without knowing them', () => {
		expect(new Redactor().text('Authorization: Bearer abc.def-123')).toBe(
			'Authorization: Bearer ***',
		);
		expect(new Redactor().text('https://x.test/?access_token=zzz&b=1')).toBe(
			'https://x.test/?access_token=***&b=1',
		);
	});

	test('redacts nested values and masks secret-named keys', () => {
		const out = new Redactor(['tok-9']).value({
			a: ['the token is tok-9'],
			headers: { authorization: 'Basic Zm9v' },
			n: 3,
		});
		expect(out).toEqual({ a: ['the token is ***'], headers: { authorization: '***' }, n: 3 });
	});
});

describe('Redactor', () => {
	test('masks a secret in every spelling: any letter case, URL-encoded, base64, with or without a scheme', () => {
		const live = ['Live.Tok', 'en-123/abc='].join('');
		const redactor = new Redactor([`Bearer ${live}`]);
		const base64 = Buffer.from(live).toString('base64');
		const text = `bearer ${live.toLowerCase()} | ${live.toUpperCase()} | ${encodeURIComponent(live)} | ${base64} | ${base64.replace(/=+$/, '')} | raw ${live}`;
		const out = redactor.text(text);
		for (const form of [
			live,
			live.toLowerCase(),
			live.toUpperCase(),
			encodeURIComponent(live),
			base64,
		]) {
			expect(out).not.toContain(form);
		}
	});

	test('masks an error in place: message, description, stack, context and cause', () => {
		const error = Object.assign(new Error('failed with tok-4567'), {
			description: 'see tok-4567',
			context: { data: { echo: 'tok-4567' } },
			cause: Object.assign(new Error('inner tok-4567'), {}),
		});
		new Redactor(['tok-4567']).error(error);
		expect(
			JSON.stringify({
				m: error.message,
				d: error.description,
				s: error.stack,
				c: error.context,
				x: (error.cause as Error).message,
				xs: (error.cause as Error).stack,
			}),
		).not.toContain('tok-4567');
	});

	test('values shorter than four characters are not masked everywhere', () => {
		expect(new Redactor(['abc']).text('abc abc')).toBe('abc abc');
	});
});
