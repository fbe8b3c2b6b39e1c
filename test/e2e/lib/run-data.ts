import type { NodeRun } from '../../../harness/executeOutput';

/** The `json` of every item a node put on output `output` (e.g. 1: its error output) in its first run. */
export function outputItemsAt(
	runData: Record<string, NodeRun[]>,
	nodeName: string,
	output: number,
): Array<Record<string, unknown>> {
	const runs = runData[nodeName];
	if (runs === undefined) throw new Error(`node "${nodeName}" did not run`);
	return (runs[0]?.data?.main?.[output] ?? []).map((item) => item.json);
}
