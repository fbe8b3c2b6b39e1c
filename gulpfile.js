/**
 * `npx gulp build:icons`: copies the node and credential icons into `dist/`, as n8n's classic
 * node starter does. `npm run build` (`n8n-node build`) already compiles the TypeScript and
 * copies the icons; this task is kept for people used to the classic `tsc && gulp build:icons`.
 *
 * Paths are kept: nodes/XApi/xApi.svg → dist/nodes/XApi/xApi.svg, and likewise for credentials/.
 */
const { dest, parallel, src, task } = require('gulp');

const ICONS = '*.{png,svg}';

/** One folder's icons, copied byte for byte (gulp 5 would otherwise decode them as UTF-8). */
function copyIconsOf(folder) {
	const copy = () => src(`${folder}/**/${ICONS}`, { encoding: false }).pipe(dest(`dist/${folder}`));
	copy.displayName = `copy ${folder} icons`;
	return copy;
}

task('build:icons', parallel(copyIconsOf('nodes'), copyIconsOf('credentials')));
