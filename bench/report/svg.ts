import type { Contender, UpsertRun } from '../benchmarks/upsert';
import { CONTENDER_LABELS } from '../benchmarks/upsert';

const COLORS: Record<Contender, string> = {
	package: '#2f6fdf',
	'http-default': '#e0663a',
	'http-batched': '#8a8f98',
};
const ORDER: Contender[] = ['package', 'http-default', 'http-batched'];

const WIDTH = 1100;
const HEIGHT = 470;
const TOP = 95;
const PLOT_HEIGHT = 270;
const BOTTOM = TOP + PLOT_HEIGHT;

interface Panel {
	left: number;
	width: number;
	title: string;
	yMax: number;
	yStep: number;
	value: (run: UpsertRun) => number;
	/** Tick labels on the axis. */
	label: (value: number) => string;
	/** Value labels on the bars. */
	barLabel: (value: number) => string;
	/** Dashed reference lines with their labels (drawn to the right of the panel). */
	lines: Array<{ at: number; label: string; color: string; dash: string; labelOffset: number }>;
}

function escapeXml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function drawPanel(panel: Panel, runs: UpsertRun[], latencies: number[]): string[] {
	const parts: string[] = [];
	const y = (value: number) => TOP + PLOT_HEIGHT * (1 - Math.min(value, panel.yMax) / panel.yMax);
	const right = panel.left + panel.width;
	parts.push(
		`<text x="${panel.left + panel.width / 2}" y="${TOP - 22}" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(panel.title)}</text>`,
	);
	for (let tick = 0; tick <= panel.yMax + 1e-9; tick += panel.yStep) {
		parts.push(
			`<line x1="${panel.left}" x2="${right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#eee"/>`,
		);
		parts.push(
			`<text x="${panel.left - 6}" y="${y(tick) + 4}" text-anchor="end" fill="#555">${panel.label(tick)}</text>`,
		);
	}
	const groupWidth = panel.width / Math.max(1, latencies.length);
	const barWidth = (groupWidth * 0.75) / ORDER.length;
	latencies.forEach((latency, groupIndex) => {
		const groupX = panel.left + groupIndex * groupWidth + groupWidth * 0.125;
		ORDER.forEach((contender, barIndex) => {
			const run = runs.find(
				(candidate) => candidate.latencyMs === latency && candidate.contender === contender,
			);
			if (!run) return;
			const value = panel.value(run);
			const x = groupX + barIndex * barWidth;
			const width = barWidth - 3;
			const top = y(value);
			const middle = (x + width / 2).toFixed(1);
			parts.push(
				`<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${width.toFixed(1)}" height="${(BOTTOM - top).toFixed(1)}" fill="${COLORS[contender]}"><title>${escapeXml(`${CONTENDER_LABELS[contender]}, ${latency} ms: ${run.ratio.toFixed(3)} of the ceiling, ${run.errorItems} of ${run.items} items failed`)}</title></rect>`,
			);
			const text = value > panel.yMax ? `${panel.barLabel(value)}↑` : panel.barLabel(value);
			// Inside the bar's top when there is room, so that labels never sit on the reference lines.
			const inside = BOTTOM - top > 22;
			parts.push(
				`<text x="${middle}" y="${(inside ? top + 14 : top - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="${inside ? '#fff' : '#222'}">${text}</text>`,
			);
		});
		parts.push(
			`<text x="${(panel.left + groupIndex * groupWidth + groupWidth / 2).toFixed(1)}" y="${BOTTOM + 18}" text-anchor="middle">${latency} ms latency</text>`,
		);
	});
	for (const line of panel.lines) {
		parts.push(
			`<line x1="${panel.left}" x2="${right}" y1="${y(line.at)}" y2="${y(line.at)}" stroke="${line.color}" stroke-dasharray="${line.dash}"/>`,
		);
		parts.push(
			`<text x="${right + 4}" y="${y(line.at) + line.labelOffset}" fill="${line.color}" font-size="11">${escapeXml(line.label)}</text>`,
		);
	}
	parts.push(
		`<line x1="${panel.left}" x2="${right}" y1="${BOTTOM}" y2="${BOTTOM}" stroke="#444"/>`,
	);
	return parts;
}

/**
 * Two panels per latency for the package and both HTTP Request baselines: the achieved rate as a
 * fraction of the throttle ceiling, and the share of items delivered (a burst can beat the
 * ceiling for a moment while most items fail, so the rate alone would flatter that baseline).
 */
export function throughputSvg(
	allRuns: UpsertRun[],
	requestsPerMinute: number,
	items: number,
	target: number,
): string {
	const runs = allRuns.filter((run) => run.requestsPerMinute === requestsPerMinute);
	const latencies = [...new Set(runs.map((run) => run.latencyMs))].sort((a, b) => a - b);
	const parts: string[] = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
		`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
		`<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">Bulk course upserts at the throttle ceiling</text>`,
		`<text x="${WIDTH / 2}" y="40" text-anchor="middle" fill="#555">${items} items per run, each node's defaults, ceiling ${requestsPerMinute}/min (${requestsPerMinute / 60}/s); rate = 2xx answers (the package's writes and transaction checks) / node run time</text>`,
	];
	parts.push(
		...drawPanel(
			{
				left: 60,
				width: 500,
				title: 'Achieved rate / ceiling',
				yMax: Math.min(
					1.6,
					Math.max(1.2, Math.ceil(Math.max(...runs.map((run) => run.ratio)) * 5) / 5),
				),
				yStep: 0.2,
				value: (run) => run.ratio,
				label: (value) => value.toFixed(1),
				barLabel: (value) => value.toFixed(3),
				lines: [
					{ at: 1, label: 'ceiling', color: '#222', dash: '6 4', labelOffset: -1 },
					{ at: target, label: `target ${target}`, color: '#2a9d4b', dash: '2 3', labelOffset: 11 },
				],
			},
			runs,
			latencies,
		),
	);
	parts.push(
		...drawPanel(
			{
				left: 690,
				width: 380,
				title: 'Items delivered',
				yMax: 100,
				yStep: 20,
				value: (run) => (100 * (run.items - run.missing)) / run.items,
				label: (value) => `${Math.round(value)} %`,
				barLabel: (value) => `${Math.round(value)}%`,
				lines: [],
			},
			runs,
			latencies,
		),
	);
	ORDER.forEach((contender, index) => {
		const x = 60 + index * 340;
		parts.push(
			`<rect x="${x}" y="${HEIGHT - 52}" width="12" height="12" fill="${COLORS[contender]}"/>`,
		);
		parts.push(
			`<text x="${x + 18}" y="${HEIGHT - 42}">${escapeXml(CONTENDER_LABELS[contender])}</text>`,
		);
	});
	const footnote = runs.some((run) => run.ratio > 1)
		? "A rate above the ceiling is a burst the sandbox's one-second bucket let through while the other items failed with 429."
		: 'Rates count successful requests only; items that failed (429s) show as missing on the right.';
	parts.push(
		`<text x="${WIDTH / 2}" y="${HEIGHT - 14}" text-anchor="middle" fill="#777" font-size="11">${escapeXml(footnote)}</text>`,
	);
	parts.push('</svg>');
	return `${parts.join('\n')}\n`;
}
