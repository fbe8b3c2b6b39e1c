/**
 * Every suite that reaches the package's schemas again, with zod 4 in place of zod 3
 * (`npm run test:zod4`): unit, engine and hostile. n8n ships zod 3.25 today; this run shows that
 * both nodes' input checks, answer shapes and messages keep working under zod 4.
 * The project's own `import ... from 'zod'` gets zod 4; n8n's engine, loaded by the node tests,
 * keeps the zod 3 it is built on (see the resolver).
 */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/unit', '<rootDir>/test/engine', '<rootDir>/test/hostile'],
	resolver: '<rootDir>/test/unit/xapi/zod4.resolver.js',
	globals: { ...base.globals, expectedZodMajor: 4 },
};
