/**
 * The xAPI and course-JSON suites again with zod 4 in place of zod 3 (`npm run test:zod4`). n8n ships zod 3 today;
 * this run shows that the statement validator, and the node around it, keep working under zod 4.
 * The project's own `import ... from 'zod'` gets zod 4; n8n's engine, loaded by the node tests,
 * keeps the zod 3 it is built on (see the resolver).
 */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/unit/xapi', '<rootDir>/test/unit/xapi-node', '<rootDir>/test/unit/catalog-sync'],
	resolver: '<rootDir>/test/unit/xapi/zod4.resolver.js',
	globals: { ...base.globals, expectedZodMajor: 4 },
};
