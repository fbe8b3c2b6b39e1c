/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
/** A benchmark run as a script of its own: exits 0 when it ends, 1 with the error when it fails. */
export function runScript(main: () => Promise<void>): void {
	main().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
