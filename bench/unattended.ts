/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * Sync Assignments at real size in a real n8n (the installed 2.x, `n8n execute`, the built
 * package as a custom extension): `npx n8n-node build && npx tsx bench/unattended.ts`.
 * A roster of 20,000 learners × 3 courses (60,000 pairs) read from a CSV file by n8n's own
 * Read/Write Files and Extract from File nodes, as the roster example reads it; the sandbox with
 * no throttle, no latency and instant transactions (requests are free: they are counted).
 * - n8n's peak resident memory (VmHWM of the `n8n execute` process) on the first night, beside
 *   n8n's own Edit Fields node mapping the same rows in the same kind of process;
 * - the saved execution (execution_data) with Output: Summary and with Output: All, first and
 *   second night (1 % of the pairs with a moved due date, 0.5 % gone), and the sync node's share;
 * - requests per night;
 * - a dry run of the second night beside Edit Fields on the same rows in the same execution
 *   (n8n's own executionTime of each node), 3 rounds;
 * - the memory per pair, and with 1 % of the pairs on a grace clock.
 * About 12 minutes on a 2-core machine.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { seedCourses } from '../harness/lmsSandbox';
import type { N8nSandbox } from '../harness/n8n';
import { queryDatabase, savedStaticData } from '../harness/n8nServer';
import { n8nBin, n8nInstallDir, N8N_VERSION, node24Binary } from '../harness/paths';
import { freeLoopbackPort } from '../harness/loopback';
import { manualWorkflow, packageNode, type NodeSpec } from '../harness/workflowBuilder';
import type { WorkflowJson } from '../harness/workflowJson';
import { openMemory, withClock } from '../nodes/shared/sync/memory';
import { inN8n, lmsCredential } from './lib/n8nWorkflows';
import { check, median, round } from './lib/stats';
import type { Row } from './lib/table';

const LEARNERS = Number(process.env.BENCH_UNATTENDED_LEARNERS ?? 20_000);
const COURSES = ['compliance-101', 'security-awareness', 'onboarding-essentials'];
const ROUNDS = Number(process.env.BENCH_UNATTENDED_ROUNDS ?? 3);
const MB = 1024 * 1024;

interface Pair {
	email: string;
	course: string;
	due: string;
}

function night(n: 1 | 2): Pair[] {
	const pairs = Array.from({ length: LEARNERS }, (_, l) =>
		COURSES.map((course) => ({
			email: `employee${l}@example.com`,
			course,
			due: `2026-${String(1 + (l % 12)).padStart(2, '0')}-15`,
		})),
	).flat();
	if (n === 1) return pairs;
	const gone = Math.round(pairs.length * 0.005);
	return pairs
		.slice(0, pairs.length - gone)
		.map((pair, i) => (i % 100 === 7 ? { ...pair, due: '2027-06-30' } : pair));
}

const csvOf = (pairs: Pair[], dry: boolean) =>
	['email,course,due,dry', ...pairs.map((p) => `${p.email},${p.course},${p.due},${dry}`)].join(
		'\n',
	) + '\n';

/** Flatted, as n8n stores execution data, read with n8n's own copy. */
const flatted = require(path.join(n8nInstallDir, 'node_modules', 'flatted')) as {
	parse(text: string): any;
	stringify(value: unknown): string;
};

/** Manual Trigger → Read/Write Files → Extract from File (CSV) → `last` (side by side), as the roster example reads. */
const workflow = (name: string, file: string, last: NodeSpec[]): WorkflowJson =>
	manualWorkflow(name, [
		{
			name: 'Read HR export',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1.1,
			parameters: { fileSelector: file, options: {} },
		},
		{
			name: 'Parse CSV rows',
			type: 'n8n-nodes-base.extractFromFile',
			typeVersion: 1.1,
			parameters: { operation: 'csv', options: {} },
		},
		last,
	]);

const editFields: NodeSpec = {
	name: 'Edit Fields',
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	parameters: {
		assignments: {
			assignments: [
				{ id: 'a1', name: 'email', value: '={{ $json.email }}', type: 'string' },
				{ id: 'a2', name: 'externalId', value: '={{ $json.course }}', type: 'string' },
				{ id: 'a3', name: 'dueDate', value: '={{ $json.due }}', type: 'string' },
			],
		},
		options: {},
	},
};

interface Execution {
	id: string;
	status: string;
	peakRssMb: number;
	savedBytes: number;
	nodeBytes: Record<string, number>;
	nodeMs: Record<string, number>;
	items: Record<string, number>;
	output: Record<string, any[]>;
	requests: number;
	/** Accepted writes (transactions): the requests are these and their status checks. */
	writes: number;
}

const files = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-bench-unattended-'));
process.on('exit', () => fs.rmSync(files, { recursive: true, force: true }));

inN8n(
	{
		name: 'unattended',
		what: `Unattended syncs at real size in n8n ${N8N_VERSION}: ${LEARNERS * COURSES.length} pairs`,
		env: { N8N_RESTRICT_FILE_ACCESS_TO: files },
	},
	{ latencyMs: 0, rateLimitPerMinute: 0, transactionDelayMs: 0, clientId: 'bench-unattended' },
	async (sandbox, n8n) => {
		const credential = lmsCredential('Benchmark LMS', sandbox, 100_000_000);
		await n8n.importCredentials([credential]);
		await seedCourses(
			sandbox,
			COURSES.map((id) => ({
				external_id: id,
				name: id,
				url: `https://learn.example.com/${id}`,
				prices_data: [],
			})),
		);
		const sync = (name: string, options: Record<string, unknown>) =>
			packageNode(
				name,
				'learningPlatform',
				{
					resource: 'assignment',
					operation: 'sync',
					email: '={{ $json.email }}',
					externalId: '={{ $json.course }}',
					additionalFields: { dueDate: '={{ $json.due }}' },
					options: { withdrawMissing: true, ...options },
				},
				credential,
			);
		const file = (name: string) => path.join(files, name);
		const [editId, summaryId, allId, sideId] = await n8n.importWorkflows([
			workflow('Edit Fields alone', file('edit.csv'), [editFields]),
			workflow('Sync, Output: Summary', file('summary.csv'), [sync('Sync', { output: 'summary' })]),
			workflow('Sync, Output: All', file('all.csv'), [sync('Sync', {})]),
			workflow('Dry run beside Edit Fields', file('side.csv'), [
				editFields,
				sync('Sync', { dryRun: "={{ $json.dry === 'true' }}", output: 'summary' }),
			]),
		]);
		const run = async (workflowId: string, csv: string, contents: string): Promise<Execution> => {
			fs.writeFileSync(file(csv), contents);
			const before = sandbox.requests().at(-1)?.seq ?? 0;
			const writesBefore = sandbox.state().transactions.length;
			const execution = await executeMeasured(n8n, workflowId);
			const requests =
				(sandbox.requests().at(-1)?.seq ?? 0) -
				before -
				sandbox.requests().filter((r) => r.seq > before && r.path.endsWith('/oauth/token')).length;
			const writes = sandbox.state().transactions.length - writesBefore;
			return { ...execution, requests, writes };
		};
		const night1 = night(1);
		const night2 = night(2);
		const changed = night2.filter((pair) => pair.due === '2027-06-30').length;
		const gone = night1.length - night2.length;

		console.log('  Edit Fields alone, first night rows …');
		const edit = await run(editId, 'edit.csv', csvOf(night1, false));
		console.log('  Sync (Summary), first night …');
		const summary1 = await run(summaryId, 'summary.csv', csvOf(night1, false));
		console.log('  Sync (Summary), second night …');
		const summary2 = await run(summaryId, 'summary.csv', csvOf(night2, false));
		console.log('  Sync (All), first and second night …');
		const all1 = await run(allId, 'all.csv', csvOf(night1, false));
		const all2 = await run(allId, 'all.csv', csvOf(night2, false));
		console.log('  Dry run beside Edit Fields …');
		await run(sideId, 'side.csv', csvOf(night1, false));
		const sides: Execution[] = [];
		for (let r = 0; r < ROUNDS; r++) sides.push(await run(sideId, 'side.csv', csvOf(night2, true)));

		const staticData = await savedStaticData(n8n, summaryId);
		const memory = memoryFigures(staticData, night2.length);

		const counts = (execution: Execution) => execution.output.Sync?.[0]?.counts ?? {};
		const measured: Array<[string, Execution, string]> = [
			['Edit Fields alone (first night rows)', edit, 'Edit Fields'],
			['Sync, Output: Summary, first night', summary1, 'Sync'],
			['Sync, Output: Summary, second night', summary2, 'Sync'],
			['Sync, Output: All, first night', all1, 'Sync'],
			['Sync, Output: All, second night', all2, 'Sync'],
		];
		const rows: Row[] = measured.map(([run, e, node]) => {
			if (e.status !== 'success') throw new Error(`${run}: execution ${e.id} ended ${e.status}`);
			return {
				run,
				requests: e.requests,
				writes: e.writes,
				'peak RSS MB': round(e.peakRssMb, 0),
				'saved execution MB': round(e.savedBytes / MB, 2),
				"the node's share MB": round((e.nodeBytes[node] ?? 0) / MB, 3),
				'the rows read (2 nodes) MB': round(
					((e.nodeBytes['Read HR export'] ?? 0) + (e.nodeBytes['Parse CSV rows'] ?? 0)) / MB,
					2,
				),
				'output items': e.items[node] ?? 0,
				'node s': round((e.nodeMs[node] ?? 0) / 1000, 1),
			};
		});
		const sideRows: Row[] = sides.map((side, r) => ({
			run: `dry run beside Edit Fields, round ${r + 1}`,
			'Edit Fields s': round(side.nodeMs['Edit Fields'] / 1000, 2),
			'Sync dry run s': round(side.nodeMs.Sync / 1000, 2),
			ratio: round(side.nodeMs.Sync / side.nodeMs['Edit Fields'], 2),
		}));
		const ratios = sides.map((side) => side.nodeMs.Sync / side.nodeMs['Edit Fields']);
		const bound = 2 * changed + 2 * gone + 10;
		const rssOver = summary1.peakRssMb - edit.peakRssMb;
		const megabyte = (what: string, bytes: number, digits: number) =>
			check(what, '≤ 1 MB', `${round(bytes / MB, digits)} MB`, bytes <= MB);
		const perPair = (what: string, bytes: number) =>
			check(`memory per pair, ${what}`, '≤ 24 bytes', `${round(bytes, 1)} bytes`, bytes <= 24);
		const checks = [
			check(
				`second night, ${night2.length} pairs, ${changed} changed, ${gone} gone`,
				`≤ 2·changed + 2·withdrawn + 10 = ${bound}`,
				String(summary2.requests),
				summary2.requests <= bound,
			),
			check(
				'first night: each pair written once',
				`${night1.length} writes`,
				`${summary1.writes} writes (${summary1.requests} requests with their checks)`,
				summary1.writes === night1.length,
			),
			check(
				'first night, peak RSS over Edit Fields alone on the same rows',
				'≤ +250 MB',
				`+${round(rssOver, 0)} MB`,
				rssOver <= 250,
			),
			megabyte(
				"the sync node's share of the saved execution, Output: Summary, first night",
				summary1.nodeBytes.Sync,
				3,
			),
			megabyte(
				"the sync node's share of the saved execution, Output: Summary, second night",
				summary2.nodeBytes.Sync,
				3,
			),
			megabyte(
				'the whole saved execution, Output: Summary, second night (the rows n8n read included)',
				summary2.savedBytes,
				2,
			),
			check(
				'dry run of the second night / Edit Fields on the same rows (same execution), median',
				'≤ 1.2×',
				`${median(ratios).toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
				median(ratios) <= 1.2,
			),
			perPair('after the second night', memory.plain),
			perPair('1 % of the pairs on a grace clock', memory.clocked),
		];
		console.log(`  summary counts, second night: ${JSON.stringify(counts(summary2))}`);
		return {
			title: 'Syncs run unattended: a 60,000-pair roster at real size in n8n',
			method: `n8n ${N8N_VERSION}, each run a fresh \`n8n execute\` of an imported workflow (the built package as a custom extension, SQLite): Manual Trigger → Read/Write Files → Extract from File (CSV) → the node under test. The roster: ${LEARNERS.toLocaleString('en-US')} learners × ${COURSES.length} courses (${night1.length.toLocaleString('en-US')} pairs), the second night with ${changed} due dates moved (1 %) and ${gone} pairs gone (0.5 %), Withdraw Missing on; the sandbox in the benchmark's process with no throttle, no latency and instant transactions, so requests are counted, not waited for. Peak RSS = VmHWM of the \`n8n execute\` process (the whole n8n: the application, the rows, the run). Saved execution = the bytes n8n stored in execution_data (flatted); a node's share = its run data as n8n stringifies it; "the rows read" = what Read/Write Files and Extract from File added (n8n's own, the same for Edit Fields). The dry run and Edit Fields hang off the same Extract from File node in one execution; their times are n8n's executionTime. Memory: JSON bytes of the node's static data after the second night per pair held, and the same memory with a grace clock set on 1 % of its pairs.`,
			rows: [...rows, ...sideRows],
			checks,
			details: {
				learners: LEARNERS,
				pairs: night1.length,
				changed,
				gone,
				memory,
				ratios,
				secondNightCounts: counts(summary2),
			},
		};
	},
);

/** `n8n execute --id`, its peak RSS sampled from /proc (VmHWM), its saved execution read back. */
async function executeMeasured(
	n8n: N8nSandbox,
	workflowId: string,
): Promise<Omit<Execution, 'requests' | 'writes'>> {
	const env = { ...n8n.environment(), N8N_RUNNERS_BROKER_PORT: String(await freeLoopbackPort()) };
	const child = spawn(node24Binary, [n8nBin, 'execute', `--id=${workflowId}`], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stderr = '';
	const keep = (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000));
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	let peakKb = 0;
	const sample = () => {
		try {
			const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
			peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
		} catch {
			// The process has ended.
		}
	};
	const sampler = setInterval(sample, 100);
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	clearInterval(sampler);
	if (code !== 0) throw new Error(`n8n execute --id=${workflowId} exited with ${code}: ${stderr}`);
	const [row] = await queryDatabase<{ id: number; status: string; data: string }>(
		n8n,
		'SELECT e.id, e.status, d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ? ORDER BY e.id DESC LIMIT 1',
		[workflowId],
	);
	const data = flatted.parse(row.data);
	const runData = data.resultData?.runData ?? {};
	const nodeBytes: Record<string, number> = {};
	const nodeMs: Record<string, number> = {};
	const items: Record<string, number> = {};
	const output: Record<string, any[]> = {};
	for (const [name, tasks] of Object.entries(runData) as Array<[string, any[]]>) {
		nodeBytes[name] = Buffer.byteLength(flatted.stringify(tasks));
		nodeMs[name] = tasks.reduce((sum, task) => sum + Number(task.executionTime ?? 0), 0);
		const main = tasks[0]?.data?.main?.[0] ?? [];
		items[name] = main.length;
		output[name] = main.slice(0, 3).map((item: any) => item.json);
	}
	return {
		id: String(row.id),
		status: row.status,
		peakRssMb: peakKb / 1024,
		savedBytes: Buffer.byteLength(row.data),
		nodeBytes,
		nodeMs,
		items,
		output,
	};
}

/** Bytes per pair of the node's memory, as saved, and with a grace clock on 1 % of its pairs. */
function memoryFigures(
	staticData: Record<string, any>,
	pairs: number,
): { plain: number; clocked: number } {
	const nodeData = staticData['node:Sync'];
	const scopes = nodeData.syncedAssignments as Record<string, unknown>;
	const scope = Object.keys(scopes)[0];
	const plain = Buffer.byteLength(JSON.stringify(scopes[scope])) / pairs;
	const copy = JSON.parse(JSON.stringify(nodeData));
	const memory = openMemory(
		{ getWorkflowStaticData: () => copy },
		{ owner: 'bench', slot: 'syncedAssignments', scope, grouped: true },
	);
	let n = 0;
	for (const [key, value] of memory.entries)
		if (n++ % 100 === 0) memory.entries.set(key, withClock(value, Date.now()));
	memory.save();
	const clocked = Buffer.byteLength(JSON.stringify(copy.syncedAssignments[scope])) / pairs;
	return { plain, clocked };
}
