// Benchmark code, not part of the n8n package.
// `node --require bench/lib/otherDist.cjs`: modules of this tree's dist/ load from BENCH_OTHER_DIST
// instead (another build of the package, e.g. main's), so one benchmark measures two builds.
const Module = require('node:module');
const path = require('node:path');

const ours = path.resolve(__dirname, '..', '..', 'dist') + path.sep;
const other = process.env.BENCH_OTHER_DIST;
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
	const file = resolve.call(this, request, parent, ...rest);
	return other && file.startsWith(ours)
		? path.join(path.resolve(other), file.slice(ours.length))
		: file;
};
