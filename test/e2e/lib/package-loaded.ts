import { withoutMigrationLines, type N8nSandbox } from '../../../harness/n8n';

/** The node types this package must give n8n when loaded as a custom extension. */
export const PACKAGE_NODE_TYPES = ['CUSTOM.learningPlatform', 'CUSTOM.xApi'] as const;

/**
 * Fails unless n8n itself lists every type in `expected` among the node types
 * it loaded (`n8n export:nodes`), e.g. because the built files are missing,
 * throw on load, or give the wrong `name`.
 */
export async function assertPackageLoaded(
	n8n: N8nSandbox,
	expected: readonly string[] = PACKAGE_NODE_TYPES,
): Promise<void> {
	const loaded = new Set((await n8n.exportNodeTypes()).map((nodeType) => nodeType.name));
	const missing = expected.filter((name) => !loaded.has(name));
	if (missing.length > 0) {
		const customTypes = [...loaded].filter((name) => name.startsWith('CUSTOM.'));
		const exportCall = n8n.history[n8n.history.length - 1];
		throw new Error(
			`n8n did not load ${missing.join(', ')}; custom node types it loaded: ${customTypes.join(', ') || 'none'}\n` +
				`n8n output:\n${exportCall ? withoutMigrationLines(exportCall) : ''}`,
		);
	}
}
