/**
 * End-to-end tests: the built package inside a real n8n (on Node 24; 2.x, or
 * 1.x with LP_E2E_N8N_MAJOR=1) and a real Learning Record Store, both on
 * loopback. Run through test/e2e/run.sh, which installs them into a cache
 * folder, builds the package first and runs these suites once per n8n major.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
	// dist/ holds a copy of package.json, which jest would see as a second module of the same name.
	modulePathIgnorePatterns: ['<rootDir>/dist/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
	},
	// Each n8n CLI call starts the whole application (about 7-10 s on 2.x, 2-4 s on 1.x).
	testTimeout: 300_000,
	// One n8n at a time: 2 cores, and every instance runs migrations on start.
	maxWorkers: 1,
	verbose: true,
};
