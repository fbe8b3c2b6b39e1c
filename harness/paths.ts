/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The n8n versions the suites run against, by major; scripts/install-n8n.sh installs them. */
const n8nVersions = JSON.parse(
	fs.readFileSync(path.join(__dirname, 'n8n-versions.json'), 'utf8'),
) as Record<string, { version: string }>;

/**
 * The n8n major the suites run against: `LP_E2E_N8N_MAJOR=2` (the default) or
 * `1`. test/e2e/run.sh runs the suites once with each.
 */
export const N8N_MAJOR: 1 | 2 = selectedMajor(process.env.LP_E2E_N8N_MAJOR);

function selectedMajor(value: string | undefined): 1 | 2 {
	if (value === undefined || value === '' || value === '2') return 2;
	if (value === '1') return 1;
	throw new Error(`LP_E2E_N8N_MAJOR must be 1 or 2, got "${value}"`);
}

/** The exact n8n version of that major (harness/n8n-versions.json). */
export const N8N_VERSION: string = n8nVersions[String(N8N_MAJOR)].version;

/** The cache folder the install scripts fill, outside the repository. */
export const cacheDir: string =
	process.env.LP_E2E_CACHE ?? path.join(os.homedir(), '.cache', 'n8n-nodes-learning-platform');

/**
 * n8n 2.x needs Node >= 24 and n8n 1.123 runs on it too; the tests themselves
 * run on the repository's Node.
 */
export const node24Binary: string = path.join(cacheDir, 'node24', 'bin', 'node');

/** Where scripts/install-n8n.sh installs an n8n version. */
export function n8nInstallDirOf(version: string): string {
	return path.join(cacheDir, `n8n-${version}`);
}

/** An installed n8n version's CLI entry point, run with `node24Binary`. */
export function n8nBinOf(version: string): string {
	return path.join(n8nInstallDirOf(version), 'node_modules', 'n8n', 'bin', 'n8n');
}

export const n8nInstallDir: string = n8nInstallDirOf(N8N_VERSION);

/** The n8n CLI entry point, run with `node24Binary`. */
export const n8nBin: string = n8nBinOf(N8N_VERSION);

/** xapi-statements, an in-memory Learning Record Store. */
export const lrsPackageDir: string = path.join(cacheDir, 'lrs', 'node_modules', 'xapi-statements');

export const lrsEntryPoint: string = path.join(lrsPackageDir, 'dist', 'index.js');

export const repoRoot: string = path.resolve(__dirname, '..');

/** What `npx n8n-node build` writes. */
export const builtPackageDir: string = path.join(repoRoot, 'dist');
