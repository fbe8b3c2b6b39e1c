/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * Per-item overhead in a real n8n (the installed 2.x, the built package loaded as a custom
 * extension): `npx n8n-node build && npx tsx bench/overheadN8n.ts`. 500 mapped course upserts, once through the learningPlatform node and once through
 * n8n's HTTP Request node with the package's credential, each run by `n8n execute`; the figure is
 * n8n's own execution time of the node (`executionTime` in the run data), per item. Rounds
 * alternate which node goes first; the ratio is learningPlatform / HTTP Request.
 */
import { N8N_VERSION } from '../harness/paths';
import { manualWorkflow } from '../harness/workflowBuilder';
import { COURSES_PATH } from '../harness/nodes';
import { coursesNode, httpUpsertNode, inN8n, lmsCredential, upsertNode } from './lib/n8nWorkflows';
import { check, median, round } from './lib/stats';

const ITEMS = Number(process.env.BENCH_OVERHEAD_ITEMS ?? 500);
const ROUNDS = Number(process.env.BENCH_OVERHEAD_N8N_ROUNDS ?? 5);
const TARGET_RATIO = 1.0;

inN8n(
	{
		name: 'overheadN8n',
		what: `Overhead in n8n ${N8N_VERSION}: ${ITEMS} items, ${ROUNDS} rounds`,
	},
	{ latencyMs: 0, rateLimitPerMinute: 0, transactionDelayMs: 0, clientId: 'bench-overhead-n8n' },
	async (sandbox, n8n) => {
		const credential = lmsCredential('Benchmark LMS', sandbox, 10_000_000);
		await n8n.importCredentials([credential]);
		const items = (tag: string) => coursesNode(ITEMS, tag);
		const packageNode = upsertNode(credential);
		const httpNode = httpUpsertNode(sandbox.url, credential);
		const [packageId, httpId, warmId] = await n8n.importWorkflows([
			manualWorkflow('Overhead: learningPlatform', [items('package'), packageNode]),
			manualWorkflow('Overhead: HTTP Request', [items('http'), httpNode]),
			manualWorkflow('Overhead: warm-up', [items('warm'), packageNode]),
		]);
		// The first execution fetches the token (saved in the credential) and warms n8n's caches.
		await n8n.execute(warmId);
		const msPerItem = async (workflowId: string): Promise<number> => {
			sandbox.reset();
			const execution = await n8n.execute(workflowId);
			const run = execution.runData.Node?.[0];
			const accepted = sandbox
				.requests()
				.filter((r) => r.path === COURSES_PATH && r.status === 202).length;
			if (!execution.ok || !run || accepted !== ITEMS)
				throw new Error(
					`run failed: ${accepted} of ${ITEMS} accepted ${execution.errorMessage ?? ''}`,
				);
			return Number(run.executionTime) / ITEMS;
		};
		const rounds: Array<{ packageMs: number; httpMs: number; ratio: number }> = [];
		for (let r = 1; r <= ROUNDS; r++) {
			const packageFirst = r % 2 === 1;
			const first = await msPerItem(packageFirst ? packageId : httpId);
			const second = await msPerItem(packageFirst ? httpId : packageId);
			const [packageMs, httpMs] = packageFirst ? [first, second] : [second, first];
			rounds.push({ packageMs, httpMs, ratio: packageMs / httpMs });
			console.log(
				`  round ${r}: learningPlatform ${packageMs.toFixed(3)} ms/item, HTTP Request ${httpMs.toFixed(3)} ms/item, ratio ${(packageMs / httpMs).toFixed(3)}`,
			);
		}
		const medianRatio = round(median(rounds.map((r) => r.ratio)), 3);
		const rows = [
			{
				set_up: `n8n ${N8N_VERSION} (n8n execute), fields mapped from each item`,
				'learningPlatform ms/item (median)': round(median(rounds.map((r) => r.packageMs)), 3),
				'HTTP Request ms/item (median)': round(median(rounds.map((r) => r.httpMs)), 3),
				'ratio per round': rounds.map((r) => r.ratio.toFixed(2)).join(' '),
				'median ratio': medianRatio.toFixed(3),
			},
		];
		const checks = [
			check(
				'time per item in real n8n, learningPlatform / HTTP Request (median)',
				`≤ ${TARGET_RATIO.toFixed(1)}`,
				medianRatio.toFixed(3),
				medianRatio <= TARGET_RATIO,
			),
		];
		return {
			title: 'Per-item overhead in real n8n',
			method: `${ITEMS} course upserts per execution in n8n ${N8N_VERSION} (\`n8n execute\` of an imported workflow: Manual Trigger → Code node with the items → the node under test), the built package loaded as a custom extension: the learningPlatform node (three {{ $json.field }} mappings, Wait for Completion off: one request per item) against n8n's HTTP Request node 4.2 posting the same body from one JSON-body expression with the package's credential; the sandbox in this process with no latency and no throttle. Time per item = n8n's own execution time of the node (\`executionTime\` in the run data) / items. ${ROUNDS} rounds, alternating which node runs first; ratio = learningPlatform / HTTP Request. The package reads every parameter through n8n's own getNodeParameter.`,
			rows,
			checks,
			details: { items: ITEMS, rounds },
		};
	},
);
