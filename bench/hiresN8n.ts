/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * HR hires beside a bulk run where users run them: `npx n8n-node build && npx tsx bench/hiresN8n.ts`.
 * One `n8n start` (the built package as a custom extension), one credential at its defaults, the
 * sandbox at the platform's 300 a minute (50 ± 20 ms, transactions of 1 s). A webhook feeds 400
 * courses to Create or Update (Wait for Completion on); 15 s later five hires, 3 s apart, each a
 * webhook that answers when Assignment → Assign has confirmed its transaction. Baseline in the same
 * run: one hire with nothing beside it. From the sandbox's log: what each hire's requests waited for.
 */
import type { LoggedRequest } from '../sandbox/server';
import { executionsOf, startN8nServer, waitUntil } from '../harness/n8nServer';
import { N8N_VERSION } from '../harness/paths';
import { seedCourses } from '../harness/lmsSandbox';
import { COURSES_PATH, courseItems } from '../harness/nodes';
import { packageNode, webhookWorkflow } from '../harness/workflowBuilder';
import type { CredentialJson, WorkflowJson } from '../harness/workflowJson';
import { inN8n, lmsCredential, upsertWorkflow } from './lib/n8nWorkflows';
import { check, none, round, sleep } from './lib/stats';

const RATE = 300;
const BULK = 400;
const HIRES = 5;
const ASSIGN_PATH = '/api/developer/v2/user_courses.json';
const CHECK_PATH = '/api/developer/v2/request_data/';
const at = (r: LoggedRequest) => Date.parse(r.time);

/** Webhook (answers with the node's output when it is done) → Assignment → Assign, defaults. */
function hireWorkflow(credential: CredentialJson): WorkflowJson {
	return webhookWorkflow('Hire', 'hire', 'lastNode', [
		packageNode(
			'Assign onboarding',
			'learningPlatform',
			{
				resource: 'assignment',
				operation: 'assign',
				email: '={{ $json.body.email }}',
				externalId: { __rl: true, mode: 'id', value: 'onboarding-101' },
			},
			credential,
		),
	]);
}

interface Hire {
	hire: string;
	ms: number;
	ok: boolean;
	/** Each of its requests: what, ms after the webhook was called, status, ms since the last. */
	requests: Array<{ kind: string; atMs: number; status: number | null; waitedMs: number }>;
}

inN8n(
	{
		name: 'hires',
		script: 'hiresN8n',
		what: `Hires beside a bulk run in n8n ${N8N_VERSION} (\`n8n start\`): ${BULK} confirmed upserts, ${HIRES} hires 3 s apart`,
	},
	{
		rateLimitPerMinute: RATE,
		latencyMs: 50,
		latencyJitterMs: 20,
		transactionDelayMs: 1000,
		transactionsPerSecond: 5,
		clientId: 'bench-hires-n8n',
	},
	async (sandbox, n8n) => {
		await seedCourses(sandbox, [
			{
				external_id: 'onboarding-101',
				name: 'Onboarding',
				url: 'https://learn.example.com/onboarding',
				prices_data: [],
			},
		]);
		const credential = lmsCredential('Learning platform', sandbox, RATE);
		const bulk = upsertWorkflow('Bulk', 'bulk', credential, true);
		await n8n.importCredentials([credential]);
		const [bulkId, hireId] = await n8n.importWorkflows([bulk.json, hireWorkflow(credential)]);
		for (const id of [bulkId, hireId]) await n8n.activate(id);
		const server = await startN8nServer(n8n, { webhookPaths: ['bulk', 'hire'] });
		const post = (path: string, body: unknown) =>
			fetch(server.webhookUrl(path), {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
		const hire = async (name: string): Promise<Hire> => {
			const email = `${name}@example.com`;
			const calledAt = Date.now();
			const answer = await post('hire', { email });
			const json = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
			const ms = Date.now() - calledAt;
			const log = sandbox.requests().filter((r) => at(r) >= calledAt);
			const write = log.find(
				(r) => r.path === ASSIGN_PATH && (r.body as { email_id?: string })?.email_id === email,
			);
			const checks = log.filter((r) => r.path === `${CHECK_PATH}${String(json.transactionId)}`);
			let last = calledAt;
			const requests = [...(write ? [write] : []), ...checks].map((r, i) => {
				const entry = {
					kind: i === 0 ? 'assign' : `check ${i}`,
					atMs: at(r) - calledAt,
					status: r.status,
					waitedMs: at(r) - last,
				};
				last = at(r);
				return entry;
			});
			const ok = answer.ok && json.confirmation === 'confirmed' && json.status === 'success';
			console.log(
				`  ${name}: confirmed in ${(ms / 1000).toFixed(1)} s (${ok ? 'ok' : JSON.stringify(json).slice(0, 300)}); ${requests.map((r) => `${r.kind} at ${r.atMs} ms (${r.status})`).join(', ')}`,
			);
			return { hire: name, ms, ok, requests };
		};
		const alone = await hire('alone');
		await sleep(2_000);
		const bulkFrom = sandbox.requests().length;
		await post('bulk', { courses: courseItems(BULK, 'bulk') });
		await sleep(15_000);
		const beside: Hire[] = [];
		for (let i = 1; i <= HIRES; i++) {
			beside.push(await hire(`hire${i}`));
			await sleep(3_000);
		}
		await waitUntil(
			'the bulk execution to end',
			300_000,
			async () => (await executionsOf(n8n, bulkId)).some((e) => e.stoppedAt) || undefined,
		);
		await server.stop();
		const log = sandbox
			.requests()
			.slice(bulkFrom)
			.filter((r) => !r.path.endsWith('/oauth/token'));
		const bulkLog = log.filter((r) => r.path === COURSES_PATH || r.path.startsWith(CHECK_PATH));
		const spanMs = at(bulkLog[bulkLog.length - 1]) - at(bulkLog[0]);
		const inSpan = log.filter(
			(r) => at(r) >= at(bulkLog[0]) && at(r) <= at(bulkLog[bulkLog.length - 1]),
		);
		const share = round(
			(inSpan.filter((r) => r.status !== 429).length - 1) / (spanMs / (60_000 / RATE)),
			3,
		);
		const stored = sandbox.state().courses;
		const lost = courseItems(BULK, 'bulk').filter((c) => !stored[c.externalId]).length;
		const refused = log.filter((r) => r.status === 429).length;
		const worst = Math.max(...beside.map((h) => h.ms));
		const rows = [alone, ...beside].map((h) => ({
			hire: h.hire === 'alone' ? 'alone (baseline)' : h.hire,
			's to confirmed': round(h.ms / 1000, 1),
			confirmed: h.ok ? 'yes' : 'no',
			'requests (ms after the webhook call, waited since the last)': h.requests
				.map((r) => `${r.kind} ${r.atMs} (${r.waitedMs}) ${r.status}`)
				.join('; '),
		}));
		const checks = [
			check(
				'worst hire beside the bulk run',
				'≤ 5 s',
				`${round(worst / 1000, 1)} s`,
				worst <= 5_000,
			),
			check(
				'every hire confirmed',
				`${HIRES}/${HIRES}`,
				`${beside.filter((h) => h.ok).length}/${HIRES}`,
				beside.every((h) => h.ok),
			),
			check(
				"the client's share of the ceiling during the bulk run",
				'≥ 0.98',
				share.toFixed(3),
				share >= 0.98,
			),
			none('bulk courses lost', lost),
		];
		return {
			title: 'HR hires beside a bulk run in real n8n',
			method: `n8n ${N8N_VERSION} \`n8n start\`, the built package as a custom extension, one credential at its defaults (300/min). The sandbox at ${RATE}/min (its default limiter), 50 ± 20 ms latency, transactions of 1 s (at most 5 a second). A webhook feeds ${BULK} courses to Create or Update Course (Wait for Completion on); 15 s later ${HIRES} hires, 3 s apart, each a webhook answering when Assignment → Assign has confirmed its transaction; before the bulk, one hire alone (the baseline). Each request of a hire: the ms after its webhook call it reached the sandbox, and (in brackets) the ms since the hire's previous request, or since the call: its turn in the throttle, the ${'~'}50 ms answer, and before a check the learned delay until the transaction is likely done. Share = the client's accepted requests (writes and checks, hires included) between the bulk's first and last, over 300 a minute in that span. ${refused} × 429.`,
			rows,
			checks,
			details: { alone, beside, share, spanMs, lost, refused },
		};
	},
);
