/** One run of one node, as n8n stores it under `data.resultData.runData`. */
export interface NodeRun {
	executionStatus?: string;
	/** Output items per connection type and output index: `data.main[output][item].json`. */
	data?: { main?: Array<Array<{ json: Record<string, unknown>; [key: string]: unknown }> | null> };
	error?: { message?: string; description?: string; [key: string]: unknown };
	[key: string]: unknown;
}

/** The run as `n8n execute --rawOutput` prints it. */
export interface ExecutionJson {
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: { message?: string; [key: string]: unknown };
			lastNodeExecuted?: string;
		};
	};
	status?: string;
	finished?: boolean;
	[key: string]: unknown;
}

export interface ExecutionResult {
	/** The CLI exited with 0 and the run has no error. */
	ok: boolean;
	exitCode: number | string;
	/** Keyed by node name; empty when the run never started (e.g. unknown node type). */
	runData: Record<string, NodeRun[]>;
	/** The whole parsed run, or null when the CLI printed none. */
	raw: ExecutionJson | null;
	/** The run's error message, or the CLI's when it printed no run. */
	errorMessage?: string;
	stdout: string;
	stderr: string;
}

/**
 * `n8n execute` prints the run as indented JSON: on success after its start-up
 * log lines, on failure between "Execution error:" lines. Indented JSON opens
 * and closes with `{` and `}` alone on a line; nothing else it prints does.
 */
export function parseExecuteOutput(cli: {
	exitCode: number | string;
	stdout: string;
	stderr: string;
}): ExecutionResult {
	const raw = extractRunJson(cli.stdout);
	const runError = raw?.data.resultData.error;
	// n8n 1.x's CLI, on a busy machine, now and then exits non-zero while shutting down after it
	// printed a finished run: the run is what the suites check, the exit code stays in `exitCode`.
	const finished =
		raw !== null && runError === undefined && (raw.finished === true || raw.status === 'success');
	const ok = raw !== null && runError === undefined && (cli.exitCode === 0 || finished);
	return {
		ok,
		exitCode: cli.exitCode,
		runData: raw?.data.resultData.runData ?? {},
		raw,
		errorMessage:
			runError?.message ??
			(ok
				? undefined
				: `${cliErrorMessage(cli.stdout, cli.stderr)} (n8n exited with ${cli.exitCode})`),
		stdout: cli.stdout,
		stderr: cli.stderr,
	};
}

function extractRunJson(stdout: string): ExecutionJson | null {
	const lines = stdout.split('\n');
	const start = lines.indexOf('{');
	if (start === -1) return null;
	const end = lines.indexOf('}', start);
	if (end === -1) return null;
	return JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionJson;
}

/** The first line after the CLI's "Execution error:" banner. */
function cliErrorMessage(stdout: string, stderr: string): string {
	const lines = `${stdout}\n${stderr}`.split('\n').map((line) => line.trim());
	const banner = lines.lastIndexOf('====================================');
	const message = banner === -1 ? undefined : lines.slice(banner + 1).find((line) => line !== '');
	return message ?? lines.filter((line) => line !== '').slice(-1)[0] ?? '';
}

/** The `json` of every item a node put on its first output in its first run. */
export function outputItems(
	runData: Record<string, NodeRun[]>,
	nodeName: string,
): Array<Record<string, unknown>> {
	const runs = runData[nodeName];
	if (runs === undefined) {
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(runData).join(', ') || 'none'}`,
		);
	}
	return (runs[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}
