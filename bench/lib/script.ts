/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/**
 * A benchmark run as a script of its own: exits with what `main` returns (0 when nothing), or
 * with `failureCode` and the error when it fails.
 */
export function runScript(main: () => Promise<number | void>, failureCode = 1): void {
	main().then(
		(code) => process.exit(code ?? 0),
		(error: unknown) => {
			console.error(error);
			process.exit(failureCode);
		},
	);
}
