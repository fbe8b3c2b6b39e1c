/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * What hostile servers cost with default settings, measured through n8n's execution engine
 * against loopback servers: `npx tsx --expose-gc bench/hostile.ts [memory] [bytes] [depth] [hang]`.
 * - memory: Return All against a catalog that never ends (every page new courses, a huge
 *   total), beside the same Return All of a real 50,000-course catalog in the same run: the
 *   ratio of peak heap shows the ceiling, not the server, bounds it.
 * - bytes: Return All against a catalog of one 8 MB course a page (forty pages): the memory
 *   budget per walk (Max Megabytes, 256 by default: each page as received and as parsed) ends
 *   it, at a peak heap bounded by it.
 * - depth: the cost of checking an answer's nesting depth before parsing it, beside
 *   JSON.parse of the same answer (16 MB of statements).
 * - hang: one upsert against a server that accepts the connection and never answers, with the
 *   default timeouts (takes about two minutes).
 */
import type http from 'node:http';

import type { INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness/engine';
import { nestingDepth } from '../nodes/shared/request/body';
import { listenOnLoopback } from '../harness/loopback';
import { runScript } from './lib/script';

const PAGE = 100;
const REAL_CATALOG = 50_000;

function course(n: number) {
	return {
		id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		name: `Course ${n} ${'x'.repeat(600)}`,
		description: 'd'.repeat(300),
		images: [],
		url: `https://learn.test/${n}`,
		external_id: `c-${n}`,
		tags: ['t'],
		prices_data: [],
	};
}

async function serve(
	handler: http.RequestListener,
): Promise<{ url: string; close(): Promise<void>; requests(): number }> {
	let requests = 0;
	const server = await listenOnLoopback((req, res) => {
		requests++;
		handler(req, res);
	});
	return { url: server.url, requests: () => requests, close: server.close };
}

function platform(pageOf: (offset: number) => unknown) {
	return serve((req, res) => {
		const url = new URL(req.url ?? '/', 'http://x');
		if (url.pathname === '/api/oauth/token') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ access_token: 'bench-token', expires_in: 3600 }));
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(pageOf(Number(url.searchParams.get('offset') ?? 0))));
	});
}

let clients = 0;
function credentials(baseUrl: string, extra: Record<string, unknown> = {}) {
	return {
		learningPlatformOAuth2Api: {
			baseUrl,
			clientId: `bench-${++clients}-${Date.now()}`,
			clientSecret: 'bench-secret',
			requestsPerMinute: 1_000_000,
			accessToken: '',
			...extra,
		},
	};
}

function node(parameters: INodeParameters) {
	return {
		nodes: [
			{
				id: 'in',
				name: 'In',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: {},
			},
			{
				id: 'lp',
				name: 'Node',
				type: 'n8n-nodes-learning-platform.learningPlatform',
				typeVersion: 1,
				position: [200, 0] as [number, number],
				parameters,
				credentials: { learningPlatformOAuth2Api: { id: '1', name: 'c' } },
			},
		],
		connections: { In: { main: [[{ node: 'Node', type: 'main' as const, index: 0 }]] } },
	};
}

function heapMb(): number {
	(globalThis as { gc?: () => void }).gc?.();
	return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function returnAll(
	pageOf: (offset: number) => unknown,
	options: Record<string, unknown> = {},
) {
	const server = await platform(pageOf);
	const before = heapMb();
	let peak = before;
	const sampler = setInterval(
		() => (peak = Math.max(peak, process.memoryUsage().heapUsed / 1024 / 1024)),
		10,
	);
	const started = Date.now();
	const run = await runWorkflow({
		workflow: node({
			resource: 'course',
			operation: 'getMany',
			returnAll: true,
			options,
		} as INodeParameters),
		credentials: credentials(server.url),
		startNode: 'In',
	});
	clearInterval(sampler);
	const items = run.run.data.resultData.runData.Node?.[0]?.data?.main?.[0]?.length ?? 0;
	const result = {
		items,
		error: run.error?.message,
		requests: server.requests(),
		seconds: (Date.now() - started) / 1000,
		peakMb: peak - before,
	};
	await server.close();
	return result;
}

async function memory(): Promise<void> {
	if (!(globalThis as { gc?: unknown }).gc)
		console.log('(run with --expose-gc for retained-heap figures)');
	const real = await returnAll((offset) => ({
		data: Array.from({ length: Math.max(0, Math.min(PAGE, REAL_CATALOG - offset)) }, (_, i) =>
			course(offset + i),
		),
		total_count: REAL_CATALOG,
	}));
	const endless = await returnAll((offset) => ({
		data: Array.from({ length: PAGE }, (_, i) => course(offset + i)),
		total_count: 1_000_000_000,
	}));
	console.log('\nReturn All, default ceilings (Max Pages 1,000, Max Items 50,000)');
	console.log(
		`  real catalog of ${REAL_CATALOG}: ${real.items} items, ${real.requests} requests, ${real.seconds.toFixed(1)} s, peak heap +${real.peakMb.toFixed(0)} MB`,
	);
	console.log(
		`  endless catalog: ${endless.items} items, ${endless.requests} requests, ${endless.seconds.toFixed(1)} s, peak heap +${endless.peakMb.toFixed(0)} MB`,
	);
	console.log(`    error: ${endless.error}`);
	console.log(
		`  ratio endless / real (peak heap): ${(endless.peakMb / Math.max(real.peakMb, 1)).toFixed(2)}`,
	);
}

async function bytes(): Promise<void> {
	const big = 'b'.repeat(8 * 1024 * 1024 - 200);
	const pages = 40;
	const walk = await returnAll((offset) => ({
		data: offset < pages ? [{ ...course(offset), description: big }] : [],
		total_count: pages,
	}));
	const small = await returnAll(
		(offset) => ({
			data: offset < pages ? [{ ...course(offset), description: big }] : [],
			total_count: pages,
		}),
		{ maxMegabytes: 64 },
	);
	console.log(`\nReturn All, ${pages} pages of one 8 MB course each`);
	console.log(
		`  default budget (256 MB): ${walk.items} items, ${walk.requests - 1} page requests, ${walk.seconds.toFixed(1)} s, peak heap +${walk.peakMb.toFixed(0)} MB`,
	);
	console.log(`    error: ${walk.error}`);
	console.log(
		`  Max Megabytes 64: ${small.items} items, ${small.requests - 1} page requests, ${small.seconds.toFixed(1)} s, peak heap +${small.peakMb.toFixed(0)} MB`,
	);
	console.log(`    error: ${small.error}`);
}

function depth(): void {
	const statement = (n: number) => ({
		id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		actor: { name: 'Ada "[{"', mbox: 'mailto:ada@example.com' },
		verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
		object: { id: `https://learn.test/${n}`, definition: { name: { 'en-US': 'Card [1] {x}' } } },
		result: {
			score: { scaled: 0.9 },
			success: true,
			extensions: { 'https://x.test/e': [[1, [2]], { a: { b: [] } }] },
		},
		stored: '2026-01-01T00:00:00.000Z',
	});
	const statements: unknown[] = [];
	let text = '';
	for (let n = 0; text.length < 16 * 1024 * 1024 - 2_000; n += 1_000) {
		for (let i = 0; i < 1_000; i++) statements.push(statement(n + i));
		text = JSON.stringify({ statements });
	}
	const time = (what: () => unknown, rounds = 5) => {
		const ms: number[] = [];
		for (let r = 0; r < rounds; r++) {
			const started = process.hrtime.bigint();
			what();
			ms.push(Number(process.hrtime.bigint() - started) / 1e6);
		}
		return ms.sort((a, b) => a - b)[Math.floor(rounds / 2)];
	};
	const scan = time(() => nestingDepth(text, 100));
	const parse = time(() => JSON.parse(text));
	console.log(
		`\nNesting depth of a ${(text.length / 1024 / 1024).toFixed(1)} MB StatementResult (${statements.length} statements, depth ${nestingDepth(text)}), median of 5`,
	);
	console.log(
		`  depth scan: ${scan.toFixed(1)} ms; JSON.parse: ${parse.toFixed(1)} ms; scan / parse: ${(scan / parse).toFixed(2)}`,
	);
	const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
	console.log(
		`  20,000 levels: scan stops after ${nestingDepth(deep, 100)} levels in ${time(() => nestingDepth(deep, 100)).toFixed(3)} ms`,
	);
}

async function hang(): Promise<void> {
	const server = await serve((req, res) => {
		if (req.url?.startsWith('/api/oauth/token')) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ access_token: 'bench-token', expires_in: 3600 }));
		}
		// Every API request: accepted, never answered.
	});
	const started = Date.now();
	const run = await runWorkflow({
		workflow: node({
			resource: 'course',
			operation: 'upsert',
			externalId: 'c-1',
			name: 'n',
			url: 'https://learn.test/c',
		}),
		credentials: credentials(server.url),
		startNode: 'In',
	});
	console.log(
		'\nOne upsert against a server that never answers (defaults: Request Timeout 30 s, Options → Timeout 120 s)',
	);
	console.log(
		`  ended after ${((Date.now() - started) / 1000).toFixed(1)} s with ${server.requests() - 1} attempts: ${run.error?.message}`,
	);
	await server.close();
}

async function main(): Promise<void> {
	const chosen = process.argv.slice(2);
	if (chosen.length === 0 || chosen.includes('memory')) await memory();
	if (chosen.length === 0 || chosen.includes('bytes')) await bytes();
	if (chosen.length === 0 || chosen.includes('depth')) depth();
	if (chosen.length === 0 || chosen.includes('hang')) await hang();
}

runScript(main);
