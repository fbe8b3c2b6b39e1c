import { ManualClock } from '../../sandbox/clock';
import type { Sandbox } from '../../sandbox/server';
import {
	COURSES,
	REQUEST_DATA,
	UUID,
	courseBody,
	get,
	issueToken,
	post,
	startTestSandbox,
} from './helpers';

describe('asynchronous transactions', () => {
	const clock = new ManualClock();
	let sandbox: Sandbox;
	let token: string;
	const delayMs = 300;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ transactionDelayMs: delayMs }, clock);
		token = await issueToken(sandbox);
	});
	afterAll(() => sandbox.close());

	it('stays initiated until the delay passes, then applies the write and ends in success', async () => {
		const accepted = await post(sandbox, COURSES, courseBody('tx-1'), token);
		expect(accepted.status).toBe(202);
		const id = accepted.body.data.id as string;
		expect(id).toMatch(UUID);

		const early = await get(sandbox, `${REQUEST_DATA}${id}`, token);
		expect(early.status).toBe(200);
		expect(early.body).toEqual({
			response: 'success',
			data: { id, http_method: 'POST', status: 'initiated', response: {} },
		});
		expect((await get(sandbox, COURSES, token)).body.data).toEqual([]);
		expect(sandbox.state().courses).toEqual({});

		clock.advance(delayMs - 1);
		expect((await get(sandbox, `${REQUEST_DATA}${id}`, token)).body.data.status).toBe('initiated');
		expect(sandbox.state().courses).toEqual({});

		clock.advance(1);
		const done = await get(sandbox, `${REQUEST_DATA}${id}`, token);
		expect(done.body.data).toEqual({
			id,
			http_method: 'POST',
			status: 'success',
			response: { message: 'Content created' },
		});
		const listed = (await get(sandbox, COURSES, token)).body.data;
		expect(listed.map((item: { external_id: string }) => item.external_id)).toEqual(['tx-1']);
		expect(sandbox.state().transactions.find((entry) => entry.id === id)).toMatchObject({
			created_at: new Date(clock.now() - delayMs).toISOString(),
			completed_at: new Date(clock.now()).toISOString(),
		});
	});

	it('applies writes to the same content in the order they were accepted', async () => {
		const first = await post(sandbox, COURSES, courseBody('tx-2', { name: 'first' }), token);
		const second = await post(sandbox, COURSES, courseBody('tx-2', { name: 'second' }), token);
		clock.advance(delayMs);
		const state = sandbox.state();
		expect(state.courses['tx-2'].name).toBe('second');
		const messages = [first, second].map(
			(answer) =>
				state.transactions.find((transaction) => transaction.id === answer.body.data.id)?.response
					.message,
		);
		expect(messages).toEqual(['Content created', 'Content updated']);
	});

	it('answers 404 for an unknown or malformed transaction id and 401 without a token', async () => {
		const unknown = await get(sandbox, `${REQUEST_DATA}no-such-id`, token);
		expect(unknown.status).toBe(404);
		expect(unknown.body.message).toEqual(expect.any(String));
		expect((await get(sandbox, `${REQUEST_DATA}%E0%A4%A`, token)).status).toBe(404);
		expect((await get(sandbox, `${REQUEST_DATA}no-such-id`)).status).toBe(401);
	});

	it('refuses query parameters on request_data', async () => {
		const accepted = await post(sandbox, COURSES, courseBody('tx-3'), token);
		const answer = await get(sandbox, `${REQUEST_DATA}${accepted.body.data.id}?verbose=1`, token);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual(['verbose']);
	});
});

describe('transactions processed as capacity allows', () => {
	const clock = new ManualClock();
	let sandbox: Sandbox;
	let token: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox(
			{ transactionDelayMs: 100, transactionsPerSecond: 4, rateLimitPerMinute: 0 },
			clock,
		);
		token = await issueToken(sandbox);
	});
	afterAll(() => sandbox.close());

	const statusOf = async (id: string) =>
		(await get(sandbox, `${REQUEST_DATA}${id}`, token)).body.data.status as string;

	it('queues writes accepted together and completes one per 1/capacity seconds, in order', async () => {
		const ids: string[] = [];
		for (let n = 0; n < 6; n++) {
			const accepted = await post(sandbox, COURSES, courseBody(`cap-${n}`), token);
			expect(accepted.status).toBe(202);
			ids.push(accepted.body.data.id);
		}
		// 4 a second: the first after its delay (100 ms), then one every 250 ms.
		const done = async () => {
			const statuses = await Promise.all(ids.map(statusOf));
			return statuses.filter((status) => status === 'success').length;
		};
		clock.advance(100);
		expect(await done()).toBe(1);
		clock.advance(250);
		expect(await done()).toBe(2);
		clock.advance(500);
		expect(await done()).toBe(4);
		clock.advance(500);
		expect(await done()).toBe(6);
		const order = sandbox
			.state()
			.transactions.filter((t) => ids.includes(t.id))
			.sort((a, b) => a.completed_at!.localeCompare(b.completed_at!))
			.map((t) => t.id);
		expect(order).toEqual(ids);
	});

	it('an idle queue adds no wait: a lone write completes after the delay alone', async () => {
		clock.advance(10_000);
		const accepted = await post(sandbox, COURSES, courseBody('cap-lone'), token);
		clock.advance(99);
		expect(await statusOf(accepted.body.data.id)).toBe('initiated');
		clock.advance(1);
		expect(await statusOf(accepted.body.data.id)).toBe('success');
	});

	it('can be changed at run time; 0 turns the queue off', async () => {
		sandbox.configure({ transactionsPerSecond: 0 });
		const ids: string[] = [];
		for (let n = 0; n < 5; n++)
			ids.push((await post(sandbox, COURSES, courseBody(`free-${n}`), token)).body.data.id);
		clock.advance(100);
		expect(await Promise.all(ids.map(statusOf))).toEqual(ids.map(() => 'success'));
	});
});
