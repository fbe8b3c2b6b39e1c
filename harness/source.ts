/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import fs from 'node:fs';
import path from 'node:path';

import type { PackageSource } from './nodeTypes';
import { builtPackageDir } from './paths';

/**
 * The benchmarks and the soak run the built package (`dist`, what `npm run bench` and
 * `npm run soak` build first). BENCH_SOURCE=source runs the TypeScript sources instead, e.g. while the build is broken.
 */
export function packageSource(): PackageSource {
	const chosen = process.env.BENCH_SOURCE === 'source' ? 'source' : 'dist';
	if (chosen === 'dist') {
		const built = path.join(
			builtPackageDir,
			'nodes',
			'LearningPlatform',
			'LearningPlatform.node.js',
		);
		if (!fs.existsSync(built)) {
			throw new Error(
				`No build at ${built}: run "npx n8n-node build" first, or set BENCH_SOURCE=source`,
			);
		}
	}
	return chosen;
}
