/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import { createCredentialsHelper } from '../../harness/engine';
import type { HarnessCredentialsHelper } from '../../harness/credentialsHelper';
import type { PackageSource } from '../../harness/nodeTypes';
import {
	COURSES_PATH,
	courseItems,
	courseUpsertNode,
	httpCourseUpsertNode,
	LMS_CREDENTIAL,
	lmsCredentialData,
} from '../../harness/nodes';
import type { NodeUnderTest } from '../../harness/runNode';
import { runSingleNode } from '../../harness/runNode';
import { startBenchSandbox, type SandboxHandle } from '../lib/sandboxHandle';
import { countRequests } from '../../harness/sandboxRequests';
import { collectGarbage } from '../lib/gc';
import { check, median, round } from '../lib/stats';
import type { TargetCheck } from '../lib/stats';
import type { Row } from '../lib/table';
import { fetchToken } from '../lib/warmup';
import type { BenchmarkOutcome } from './types';

const ITEMS = Number(process.env.BENCH_OVERHEAD_ITEMS ?? 500);
const REPEATS = Number(process.env.BENCH_OVERHEAD_REPEATS ?? 9);
/** So high that the package's throttle never holds a request back. */
const UNTHROTTLED_RPM = 10_000_000;
const TARGET_RATIO = 1.0;

interface Variant {
	name: string;
	/** Whether the target applies: the set-up users would build. */
	primary: boolean;
	packageNode: () => NodeUnderTest;
	httpNode: (baseUrl: string) => NodeUnderTest;
}

/** Like for like: one request per item, as the HTTP Request node sends (the package's confirmations are measured apart). */
const ONE_REQUEST_PER_ITEM = { waitForCompletion: false };

const FIXED = {
	externalId: 'overhead-fixed',
	name: 'Fixed course',
	url: 'https://learn.example.com/fixed',
};

const VARIANTS: Variant[] = [
	{
		name: 'fields mapped from each item (package: 3 field mappings {{ $json.field }}; HTTP Request: 1 JSON-body expression)',
		primary: true,
		packageNode: () => courseUpsertNode(ONE_REQUEST_PER_ITEM),
		httpNode: (baseUrl) => httpCourseUpsertNode(baseUrl),
	},
	{
		name: 'fixed values, no expressions (the nodes\u2019 own machinery only)',
		primary: false,
		packageNode: () => courseUpsertNode(ONE_REQUEST_PER_ITEM, FIXED),
		httpNode: (baseUrl) =>
			httpCourseUpsertNode(
				baseUrl,
				undefined,
				JSON.stringify({
					external_id: FIXED.externalId,
					name: FIXED.name,
					url: FIXED.url,
					prices_data: [],
				}),
			),
	},
];

export interface OverheadRound {
	variant: string;
	round: number;
	packageMsPerItem: number;
	httpMsPerItem: number;
	ratio: number;
}

async function timePerItem(
	sandbox: SandboxHandle,
	node: NodeUnderTest,
	tag: string,
	source: PackageSource,
	helper: HarnessCredentialsHelper,
): Promise<number> {
	await sandbox.reset();
	collectGarbage();
	const run = await runSingleNode({
		node,
		items: courseItems(ITEMS, tag),
		source,
		credentialsHelper: helper,
	});
	const accepted = countRequests(await sandbox.requests(), COURSES_PATH).accepted;
	if (run.error || run.errorItems.length > 0 || accepted !== ITEMS) {
		throw new Error(
			`${tag}: ${accepted} of ${ITEMS} accepted, ${run.errorItems.length} failed items ${run.error ?? ''}`,
		);
	}
	return run.executionMs / ITEMS;
}

async function measureVariant(
	variant: Variant,
	sandbox: SandboxHandle,
	source: PackageSource,
	helper: HarnessCredentialsHelper,
): Promise<OverheadRound[]> {
	const rounds: OverheadRound[] = [];
	for (let round_ = 1; round_ <= REPEATS; round_++) {
		// Alternate which node goes first, so that neither always runs on a fresher heap.
		const packageFirst = round_ % 2 === 1;
		const measure = (which: 'package' | 'http') =>
			timePerItem(
				sandbox,
				which === 'package' ? variant.packageNode() : variant.httpNode(sandbox.url),
				`overhead-${which}-${round_}`,
				source,
				helper,
			);
		const first = await measure(packageFirst ? 'package' : 'http');
		const second = await measure(packageFirst ? 'http' : 'package');
		const [packageMs, httpMs] = packageFirst ? [first, second] : [second, first];
		rounds.push({
			variant: variant.name,
			round: round_,
			packageMsPerItem: round(packageMs, 3),
			httpMsPerItem: round(httpMs, 3),
			ratio: round(packageMs / httpMs, 3),
		});
	}
	return rounds;
}

export async function runOverheadBenchmark(source: PackageSource): Promise<BenchmarkOutcome> {
	const sandbox = await startBenchSandbox({
		latencyMs: 0,
		rateLimitPerMinute: 0,
		transactionDelayMs: 0,
		clientId: 'bench-overhead',
	});
	const rows: Row[] = [];
	const checks: TargetCheck[] = [];
	const allRounds: OverheadRound[] = [];
	try {
		const helper = createCredentialsHelper(
			{ [LMS_CREDENTIAL]: lmsCredentialData(sandbox, UNTHROTTLED_RPM) },
			source,
		);
		await fetchToken(source, helper);
		for (const variant of VARIANTS) {
			const rounds = await measureVariant(variant, sandbox, source, helper);
			allRounds.push(...rounds);
			const medianRatio = round(median(rounds.map((r) => r.ratio)), 3);
			const ratios = rounds.map((r) => r.ratio);
			console.log(
				`  overhead, ${variant.name}: median ratio ${medianRatio} (rounds ${ratios.join(', ')})`,
			);
			rows.push({
				set_up: variant.name,
				'learningPlatform ms/item (median)': round(
					median(rounds.map((r) => r.packageMsPerItem)),
					3,
				),
				'HTTP Request ms/item (median)': round(median(rounds.map((r) => r.httpMsPerItem)), 3),
				'ratio per round': ratios.map((ratio) => ratio.toFixed(2)).join(' '),
				'median ratio': medianRatio.toFixed(3),
			});
			if (variant.primary) {
				checks.push(
					check(
						'time per item, learningPlatform / HTTP Request (median)',
						`≤ ${TARGET_RATIO.toFixed(1)}`,
						medianRatio.toFixed(3),
						medianRatio <= TARGET_RATIO,
					),
				);
			}
		}
	} finally {
		await sandbox.close();
	}
	const notes = [
		explainOverhead(
			allRounds,
			checks.some((c) => !c.pass),
		),
	];
	return {
		title: 'Per-item overhead',
		method: `${ITEMS} course upserts per run, the learningPlatform node (Wait for Completion off, so that each node sends one request per item) vs n8n's HTTP Request node (4.2, defaults, same credential, same JSON body) in the same engine, against the sandbox (in its own process) with no latency, no throttle (rateLimitPerMinute 0) and requestsPerMinute ${UNTHROTTLED_RPM.toLocaleString('en-US')} on the credential; time per item = the node's run time / items. ${REPEATS} rounds per set-up, alternating which node runs first; ratio = learningPlatform / HTTP Request. The target applies to the first set-up, the way each node is normally configured; the second takes expression evaluation out to show the nodes' own cost.`,
		rows,
		checks,
		details: { items: ITEMS, repeats: REPEATS, rounds: allRounds },
		notes,
	};
}

/** Splits the primary set-up's difference into expression evaluation and the nodes' own cost, from this run's medians. */
function explainOverhead(rounds: OverheadRound[], missed: boolean): string {
	const medianOf = (variant: Variant, pick: (r: OverheadRound) => number) =>
		median(rounds.filter((r) => r.variant === variant.name).map(pick));
	const [mapped, fixed] = VARIANTS;
	const packageExpressions =
		medianOf(mapped, (r) => r.packageMsPerItem) - medianOf(fixed, (r) => r.packageMsPerItem);
	const httpExpressions =
		medianOf(mapped, (r) => r.httpMsPerItem) - medianOf(fixed, (r) => r.httpMsPerItem);
	const fixedRatio = medianOf(fixed, (r) => r.ratio);
	const spread = rounds.filter((r) => r.variant === mapped.name).map((r) => r.ratio);
	const machinery =
		fixedRatio < 0.97
			? `so the package's own request machinery is ${((1 - fixedRatio) * 100).toFixed(0)} % cheaper and the whole gap comes with the mapping`
			: fixedRatio <= 1.03
				? "so the nodes' own request machinery costs about the same and the gap comes with the mapping"
				: `so the package's own machinery is ${((fixedRatio - 1) * 100).toFixed(0)} % slower too, and the mapping adds to that`;
	return `${missed ? 'MISS explained' : 'How the time splits'}: without expressions the package is at ${fixedRatio.toFixed(3)} of the HTTP Request node's time per item, ${machinery}. Mapping the fields added ${packageExpressions.toFixed(2)} ms per item to the package (three {{ $json.field }} mappings, each evaluated by n8n's getNodeParameter) and ${httpExpressions.toFixed(2)} ms to the HTTP Request node (one expression building the whole body, evaluated by n8n). Single rounds range ${Math.min(...spread).toFixed(2)}–${Math.max(...spread).toFixed(2)} on this shared 2-core machine (load average at the start above), so the median is only good to several per cent.`;
}
