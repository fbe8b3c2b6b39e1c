import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import {
	COURSES,
	DOCUMENTED_HEADERS,
	courseBody,
	get,
	issueToken,
	requestToken,
	startTestSandbox,
} from './helpers';

describe('injected faults', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		token = await issueToken(sandbox);
	});
	beforeEach(() => {
		sandbox.configure({ fault429: 0, fault5xx: 0, faultDrop: 0, faultExpireToken: 0 });
		sandbox.reset();
	});
	afterAll(() => sandbox.close());

	const burst = async (count: number) => {
		const answers = [];
		for (let index = 0; index < count; index++) answers.push(await get(sandbox, COURSES, token));
		return answers;
	};

	it('fault429 answers 429, half with Retry-After', async () => {
		sandbox.configure({ fault429: 1 });
		const answers = await burst(24);
		expect(answers.every((answer) => answer.status === 429)).toBe(true);
		const withHeader = answers.filter((answer) => answer.headers.get('retry-after') !== null);
		expect(withHeader.length).toBeGreaterThan(0);
		expect(withHeader.length).toBeLessThan(answers.length);
		withHeader.forEach((answer) =>
			expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1),
		);
		const faults = new Set(sandbox.requests().map((entry) => entry.fault));
		expect(faults).toEqual(new Set(['throttle-429-retry-after', 'throttle-429']));
	});

	it('fault5xx answers 500, 502 and 503', async () => {
		sandbox.configure({ fault5xx: 1 });
		const statuses = new Set((await burst(30)).map((answer) => answer.status));
		expect(statuses).toEqual(new Set([500, 502, 503]));
		expect(sandbox.requests().every((entry) => entry.fault?.startsWith('server-'))).toBe(true);
	});

	it('faultDrop closes the connection unanswered, after applying the write for some', async () => {
		sandbox.configure({ faultDrop: 1 });
		const attempts = 16;
		for (let index = 0; index < attempts; index++) {
			const sent = fetch(`${sandbox.url}${COURSES}`, {
				method: 'POST',
				headers: { ...DOCUMENTED_HEADERS, Authorization: `Bearer ${token}` },
				body: JSON.stringify(courseBody(`drop-${index}`)),
			});
			await expect(sent).rejects.toThrow();
		}
		const log = sandbox.requests();
		expect(log).toHaveLength(attempts);
		expect(log.every((entry) => entry.status === null)).toBe(true);
		const appliedIds = log
			.filter((entry) => entry.fault === 'drop-after-apply')
			.map((entry) => (entry.body as { external_id: string }).external_id);
		const lost = log.filter((entry) => entry.fault === 'drop-before-apply');
		expect(appliedIds.length).toBeGreaterThan(0);
		expect(lost.length).toBeGreaterThan(0);
		expect(appliedIds.length + lost.length).toBe(attempts);

		const state = sandbox.state();
		expect(Object.keys(state.courses).sort()).toEqual(appliedIds.sort());
	});

	it('faultExpireToken revokes the presented token and answers 401', async () => {
		const doomed = await issueToken(sandbox);
		sandbox.configure({ faultExpireToken: 1 });
		const answer = await get(sandbox, COURSES, doomed);
		expect(answer.status).toBe(401);
		expect(answer.body.error).toBe('unauthorized');
		sandbox.configure({ faultExpireToken: 0 });
		expect((await get(sandbox, COURSES, doomed)).status).toBe(401);
		expect((await get(sandbox, COURSES, token)).status).toBe(200);
		const apiCalls = sandbox.requests().filter((entry) => entry.path === COURSES);
		expect(apiCalls.map((entry) => entry.fault)).toEqual(['expire-token', null, null]);
	});

	it('never faults the token endpoint or the admin paths', async () => {
		sandbox.configure({ fault5xx: 1 });
		expect((await requestToken(sandbox)).status).toBe(200);
		expect((await fetch(`${sandbox.url}/__sandbox/health`)).status).toBe(200);
	});
});

describe('fault seed', () => {
	const statusesFor = async (options: Partial<SandboxOptions>) => {
		const sandbox = await startTestSandbox(options);
		try {
			const token = await issueToken(sandbox);
			const statuses: number[] = [];
			for (let index = 0; index < 30; index++)
				statuses.push((await get(sandbox, COURSES, token)).status);
			return statuses;
		} finally {
			await sandbox.close();
		}
	};

	it('repeats the same faults for the same seed and differs for another', async () => {
		const first = await statusesFor({ seed: 42, fault5xx: 0.5 });
		const again = await statusesFor({ seed: 42, fault5xx: 0.5 });
		const other = await statusesFor({ seed: 7, fault5xx: 0.5 });
		expect(again).toEqual(first);
		expect(other).not.toEqual(first);
		expect(first).toContain(200);
		expect(first.some((status) => status >= 500)).toBe(true);
	});
});
