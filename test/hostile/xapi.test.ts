/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * The xAPI node against record stores that redirect, hang, page forever or answer nonsense:
 * real loopback HTTP servers, driven through n8n's execution engine.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Loopback } from '../../harness/loopback';
import { json, text } from '../../harness/loopback';
import { runNode, XAPI_NODE } from '../helpers/workflows';
import { expectNoSecret, realNetwork, serve } from './platform';

realNetwork();
jest.setTimeout(30_000);

const PASSWORD = 'lrs-Pass/word+1';
const USERNAME = 'lrs-key';

function basic(server: Loopback, overrides: IDataObject = {}) {
	return {
		xApiLrsApi: {
			endpoint: `${server.url}/xAPI`,
			authentication: 'basic',
			username: USERNAME,
			password: PASSWORD,
			requestTimeout: 1,
			...overrides,
		},
	};
}

function statementItem(n: number) {
	return {
		statement: {
			actor: { name: 'Ada', mbox: 'mailto:ada@example.com' },
			verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
			object: { objectType: 'Activity', id: `https://learn.test/cards/${n}` },
		},
	};
}

const send = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'statement',
	operation: 'send',
	inputMode: 'json',
	statement: '={{ $json.statement }}',
	options,
});

const getMany = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'statement',
	operation: 'getMany',
	returnAll: true,
	filters: {},
	...extra,
});

function storedIds(body: string): string[] {
	const sent = JSON.parse(body) as Array<{ id: string }>;
	return sent.map((s) => s.id);
}

function page(ids: string[], more?: string) {
	return {
		statements: ids.map((id) => ({
			id,
			actor: { mbox: 'mailto:a@b.c' },
			verb: { id: 'http://x.test/v' },
			object: { id: 'http://x.test/o' },
		})),
		...(more ? { more } : {}),
	};
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

test('1. a statement batch redirected to another host is not resent there, nor the credentials', async () => {
	const foreign = await serve((req, res) => json(res, 200, storedIds(req.body)));
	const lrs = await serve((_, res) => {
		res.writeHead(307, { location: `${foreign.url}/xAPI/statements` });
		res.end();
	});

	const run = await runNode({
		type: XAPI_NODE,
		credentials: basic(lrs),
		items: [statementItem(1), statementItem(2)],
		parameters: send(),
	});

	expect(foreign.received).toHaveLength(0);
	expect(run.error?.message).toContain(`another host, ${foreign.host}`);
});

test('2. the Basic pair, the password and a scheme-less token are masked in every spelling', async () => {
	const pair = Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64');
	const lrs = await serve((req, res) =>
		json(res, 401, {
			message: `bad credentials ${req.headers.authorization} / basic ${pair.toLowerCase()} / ${pair} / ${PASSWORD}`,
		}),
	);
	const tokenLrs = await serve((_, res) =>
		json(res, 403, { error: 'forbidden for abc-Secret-Token-99 (ABC-SECRET-TOKEN-99)' }),
	);

	const withBasic = await runNode({
		type: XAPI_NODE,
		credentials: basic(lrs),
		items: [statementItem(1)],
		parameters: send(),
		continueOnFail: true,
	});
	const withToken = await runNode({
		type: XAPI_NODE,
		credentials: basic(tokenLrs, { authentication: 'token', token: 'Token abc-Secret-Token-99' }),
		items: [statementItem(1)],
		parameters: send(),
	});

	expect(String(withBasic.items[0].json.error)).toMatch(/HTTP 401/);
	expectNoSecret(JSON.stringify(withBasic.run.data), [pair, PASSWORD]);
	const error = withToken.error as unknown as IDataObject;
	expectNoSecret(JSON.stringify({ data: withToken.run.data, error, stack: error?.stack }), [
		'abc-Secret-Token-99',
	]);
});

test('4. a record store that never answers fails the first batch by its deadline; later batches are not sent', async () => {
	const lrs = await serve(() => {
		/* never answers */
	});
	const items = Array.from({ length: 6 }, (_, i) => statementItem(i));

	const run = await runNode({
		type: XAPI_NODE,
		credentials: basic(lrs),
		items,
		parameters: send({ batchSize: 2 }),
		continueOnFail: true,
	});

	expect(run.items).toHaveLength(6);
	expect(String(run.items[0].json.error)).toMatch(/no answer within/);
	expect(String(run.items[5].json.error)).toMatch(/Not sent: an earlier batch failed/);
	expect(lrs.received.length).toBeLessThanOrEqual(5);
});

describe('5. following "more" is bounded', () => {
	test('an ever-changing "more" with the same statements stops: nothing is emitted twice', async () => {
		let n = 0;
		const lrs = await serve((_, res) =>
			json(res, 200, page([id(1), id(2)], `/xAPI/statements?page=${++n}`)),
		);

		const run = await runNode({ type: XAPI_NODE, credentials: basic(lrs), parameters: getMany() });

		expect(run.error?.message).toMatch(/same page again/);
		expect(lrs.received).toHaveLength(2);
	});

	test('a "more" link that comes back (A → B → A) stops with an error', async () => {
		const lrs = await serve((req, res) => {
			const at = new URL(req.url, 'http://x').searchParams.get('at');
			if (at === 'b') return json(res, 200, page([id(3)], '/xAPI/statements?at=a'));
			if (at === 'a') return json(res, 200, page([id(2)], '/xAPI/statements?at=b'));
			json(res, 200, page([id(1)], '/xAPI/statements?at=a'));
		});

		const run = await runNode({ type: XAPI_NODE, credentials: basic(lrs), parameters: getMany() });

		expect(run.error?.message).toMatch(/"more" link it had sent before/);
		expect(lrs.received.length).toBeLessThanOrEqual(4);
	});

	test('an endless chain of new statements stops at the item ceiling', async () => {
		let n = 0;
		const lrs = await serve((_, res) => {
			const first = n;
			n += 50;
			json(
				res,
				200,
				page(
					Array.from({ length: 50 }, (_, i) => id(first + i)),
					`/xAPI/statements?from=${n}`,
				),
			);
		});

		const run = await runNode({
			type: XAPI_NODE,
			credentials: basic(lrs),
			parameters: getMany({ options: { maxItems: 500 } }),
		});

		expect(run.error?.message).toMatch(/stopped after 500 items/);
		expect(lrs.received.length).toBe(11);
	});
});

describe('6. answers are checked against their documented shape', () => {
	const html = (res: import('node:http').ServerResponse) =>
		text(res, 200, '<html><body>Please sign in</body></html>', 'text/html');

	test('Send answered with an HTML page is not reported as stored', async () => {
		const lrs = await serve((_, res) => html(res));

		const run = await runNode({
			type: XAPI_NODE,
			credentials: basic(lrs),
			items: [statementItem(1)],
			parameters: send(),
			continueOnFail: true,
		});

		expect(String(run.items[0].json.error)).toMatch(/unexpected answer \(HTTP 200, text\/html\)/);
		expect(run.items[0].json.statementId).toBeUndefined();
	});

	test('Send confirmed with other ids than the ones sent is not reported as stored', async () => {
		const lrs = await serve((_, res) => json(res, 200, [id(999)]));

		const run = await runNode({
			type: XAPI_NODE,
			credentials: basic(lrs),
			items: [statementItem(1)],
			parameters: send(),
			continueOnFail: true,
		});

		expect(String(run.items[0].json.error)).toMatch(/other statement ids than the ones sent/);
	});

	test('Get on an HTML page is an error, not a string item', async () => {
		const lrs = await serve((_, res) => html(res));

		const run = await runNode({
			type: XAPI_NODE,
			credentials: basic(lrs),
			parameters: { resource: 'statement', operation: 'get', statementId: id(1) },
		});

		expect(run.error?.message).toMatch(/unexpected answer \(HTTP 200, text\/html\)/);
	});

	test('Get Many on an HTML page is an error, not zero statements', async () => {
		const lrs = await serve((_, res) => html(res));

		const run = await runNode({ type: XAPI_NODE, credentials: basic(lrs), parameters: getMany() });

		expect(run.error?.message).toMatch(/unexpected answer \(HTTP 200, text\/html\)/);
	});

	test('Get answered with another statement is not believed', async () => {
		const lrs = await serve((_, res) => json(res, 200, page([id(2)]).statements[0]));

		const run = await runNode({
			type: XAPI_NODE,
			credentials: basic(lrs),
			parameters: { resource: 'statement', operation: 'get', statementId: id(1) },
		});

		expect(run.error?.message).toMatch(/sent statement/);
	});
});

test('7. a flood of an error body is cut short', async () => {
	let finished: boolean | undefined;
	const lrs = await serve((_, res) => {
		res.writeHead(400, { 'content-type': 'application/json' });
		res.on('close', () => (finished = res.writableFinished));
		const chunk = Buffer.alloc(1024 * 1024, ' ');
		res.write('{"message":"');
		let sent = 0;
		const pump = () => {
			while (sent < 20 && res.write(chunk)) sent++;
			if (sent >= 20) res.end('"}');
			else
				res.once('drain', () => {
					sent++;
					pump();
				});
		};
		pump();
	});

	const run = await runNode({
		type: XAPI_NODE,
		credentials: basic(lrs),
		items: [statementItem(1)],
		parameters: send(),
		continueOnFail: true,
	});

	expect(String(run.items[0].json.error)).toMatch(/HTTP 400/);
	await new Promise((resolve) => setTimeout(resolve, 200));
	expect(finished).toBe(false);
});
