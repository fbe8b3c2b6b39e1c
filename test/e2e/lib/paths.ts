/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as os from 'node:os';
import * as path from 'node:path';

// Must match scripts/install-n8n.sh and scripts/install-lrs.sh.
export const N8N_VERSION = '2.40.7';

/** The cache folder the install scripts fill, outside the repository. */
export const cacheDir: string =
	process.env.LP_E2E_CACHE ?? path.join(os.homedir(), '.cache', 'n8n-nodes-learning-platform');

/** n8n 2.x needs Node >= 24; the tests themselves run on the repository's Node. */
export const node24Binary: string = path.join(cacheDir, 'node24', 'bin', 'node');

export const n8nInstallDir: string = path.join(cacheDir, `n8n-${N8N_VERSION}`);

/** The n8n CLI entry point, run with `node24Binary`. */
export const n8nBin: string = path.join(n8nInstallDir, 'node_modules', 'n8n', 'bin', 'n8n');

/** xapi-statements, an in-memory Learning Record Store. */
export const lrsPackageDir: string = path.join(cacheDir, 'lrs', 'node_modules', 'xapi-statements');

export const lrsEntryPoint: string = path.join(lrsPackageDir, 'dist', 'index.js');

export const repoRoot: string = path.resolve(__dirname, '..', '..', '..');

/** What `npx n8n-node build` writes. */
export const builtPackageDir: string = path.join(repoRoot, 'dist');
