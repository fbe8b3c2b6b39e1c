/**
 * The suites where zod's behaviour can differ, again with zod 4 in place of zod 3
 * (`npm run test:zod4`): every unit test (each schema and its messages), the hostile inputs, and
 * the engine suites whose assertions are schema messages (the sync options, the transaction
 * fields). n8n ships zod 3.25 today; this run shows that both nodes' input checks, answer shapes
 * and messages keep working under zod 4. The project's own `import ... from 'zod'` gets zod 4;
 * n8n's engine, loaded by the node tests, keeps the zod 3 it is built on (see the resolver).
 */
const base = require('./jest.config');

module.exports = {
	...base,
	testMatch: [
		'<rootDir>/test/unit/**/*.test.ts',
		'<rootDir>/test/hostile/**/*.test.ts',
		'<rootDir>/test/engine/sync-unattended.test.ts',
		'<rootDir>/test/engine/lms-assignment-transaction.test.ts',
	],
	resolver: '<rootDir>/test/setup/zod4.resolver.js',
	globals: { ...base.globals, expectedZodMajor: 4 },
};
