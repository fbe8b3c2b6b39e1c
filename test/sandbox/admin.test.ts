import type { Sandbox } from '../../sandbox/server';
import {
	COURSES,
	type Json,
	courseBody,
	get,
	issueToken,
	post,
	startTestSandbox,
	writeAndWait,
} from './helpers';

const admin = async (sandbox: Sandbox, method: string, path: string, body?: unknown) => {
	const response = await fetch(`${sandbox.url}/__sandbox/${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as Json };
};

describe('admin paths and the programmatic API', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ clientId: 'admin-client' });
		token = await issueToken(sandbox);
	});
	beforeEach(() => sandbox.reset());
	afterAll(() => sandbox.close());

	it('reports its address, credentials and options', async () => {
		expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
		expect(sandbox.port).toBeGreaterThan(0);
		expect(sandbox.clientId).toBe('admin-client');
		expect(sandbox.clientSecret).toBe('sandbox-secret');
		expect(sandbox.options).toMatchObject({
			port: sandbox.port,
			host: '127.0.0.1',
			clientId: 'admin-client',
		});
		expect(await admin(sandbox, 'GET', 'health')).toEqual({ status: 200, body: { status: 'ok' } });
	});

	it('logs API and token requests with headers, body, status and fault, but not admin calls', async () => {
		const body = courseBody('log-1');
		await post(sandbox, COURSES, body, token);
		await get(sandbox, `${COURSES}?offset=0&limit=5`, token);
		await admin(sandbox, 'GET', 'state');

		const { status, body: log } = await admin(sandbox, 'GET', 'requests');
		expect(status).toBe(200);
		expect(log).toEqual([
			{
				seq: expect.any(Number),
				time: expect.any(String),
				method: 'POST',
				path: COURSES,
				query: {},
				headers: {
					authorization: `Bearer ${token}`,
					'content-type': 'application/json',
					accept: 'application/json',
				},
				body,
				status: 202,
				fault: null,
			},
			expect.objectContaining({
				method: 'GET',
				path: COURSES,
				query: { offset: '0', limit: '5' },
				headers: {
					authorization: `Bearer ${token}`,
					'content-type': 'application/json',
					accept: 'application/json',
				},
				body: null,
				status: 200,
			}),
		]);
		expect(log[1].seq).toBeGreaterThan(log[0].seq);
		expect(Number.isNaN(Date.parse(log[0].time))).toBe(false);
		expect(sandbox.requests()).toEqual(log);

		expect((await admin(sandbox, 'DELETE', 'requests')).status).toBe(200);
		expect(sandbox.requests()).toEqual([]);
	});

	it('serves the state and resets data, the log and the token count', async () => {
		await writeAndWait(sandbox, token, COURSES, courseBody('state-1'));
		await issueToken(sandbox);
		const { body: state } = await admin(sandbox, 'GET', 'state');
		expect(Object.keys(state.courses)).toEqual(['state-1']);
		expect(state.transactions).toEqual([
			expect.objectContaining({ status: 'success', external_id: 'state-1' }),
		]);
		expect(state.tokensIssued).toBe(1);
		expect(state.writesAppliedByExternalId).toEqual({ 'state-1': 1 });
		expect(state.assignments).toEqual({});

		expect((await admin(sandbox, 'POST', 'reset')).status).toBe(200);
		expect(sandbox.state()).toEqual({
			courses: {},
			assignments: {},
			transactions: [],
			tokensIssued: 0,
			writesAppliedByExternalId: {},
			lrs: { statements: [], tokensIssued: 0 },
		});
		expect(sandbox.requests()).toEqual([]);
		// Tokens survive a reset, so a connected client keeps working.
		expect((await get(sandbox, COURSES, token)).body.data).toEqual([]);
	});

	it('changes knobs at run time through POST /__sandbox/config', async () => {
		const changed = await admin(sandbox, 'POST', 'config', {
			rateLimitPerMinute: 60,
			userDomains: ['a.test'],
		});
		expect(changed.status).toBe(200);
		expect(changed.body.options).toMatchObject({ rateLimitPerMinute: 60, userDomains: ['a.test'] });
		expect(sandbox.options.rateLimitPerMinute).toBe(60);
		const statuses = [
			(await get(sandbox, COURSES, token)).status,
			(await get(sandbox, COURSES, token)).status,
		];
		expect(statuses).toEqual([200, 429]);
		await admin(sandbox, 'POST', 'config', { rateLimitPerMinute: 0 });
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
	});

	it('changes the largest page at run time', async () => {
		expect((await admin(sandbox, 'GET', 'config')).body.options.maxPageSize).toBe(50);
		for (let index = 0; index < 5; index++) {
			await writeAndWait(sandbox, token, COURSES, courseBody(`page-${index}`));
		}
		const changed = await admin(sandbox, 'POST', 'config', { maxPageSize: 3 });
		expect(changed.body.options.maxPageSize).toBe(3);
		try {
			const page = await get(sandbox, `${COURSES}?limit=5&return_total_count=true`, token);
			expect(page.body.data).toHaveLength(3);
			expect(page.body.total_count).toBe(5);
		} finally {
			sandbox.configure({ maxPageSize: 50 });
		}
	});

	it.each([
		[{ latencyMs: -5 }],
		[{ fault5xx: 1.5 }],
		[{ fault5xx: 0.6, faultDrop: 0.6 }],
		[{ noSuchKnob: 1 }],
		[{ port: 1 }],
		[{ maxPageSize: 0 }],
		[{ maxPageSize: 2.5 }],
		[{ maxPageSize: 'many' }],
	])('refuses the config %j with 400 and keeps the options', async (change) => {
		const before = sandbox.options;
		const answer = await admin(sandbox, 'POST', 'config', change);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toEqual(expect.any(String));
		expect(sandbox.options).toEqual(before);
	});

	it('answers 404 for unknown paths', async () => {
		expect((await admin(sandbox, 'GET', 'nothing')).status).toBe(404);
		expect((await get(sandbox, '/api/developer/v2/unknown.json', token)).status).toBe(404);
	});
});
