/**
 * For `jest.zod4.config.js`: `zod` (and `zod/...`) resolve to zod 4 (the `zod4` devDependency)
 * when imported by this project's own code. Packages in node_modules keep their own zod: n8n's
 * engine is built on zod 3 and does not load under zod 4.
 */
const path = require('path');

module.exports = (request, options) => {
	const ownCode = !options.basedir.split(path.sep).includes('node_modules');
	const isZod = request === 'zod' || request.startsWith('zod/');
	return options.defaultResolver(ownCode && isZod ? `zod4${request.slice(3)}` : request, options);
};
