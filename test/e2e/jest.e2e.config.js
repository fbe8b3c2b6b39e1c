/**
 * End-to-end tests: the built package inside a real n8n 2.x (on Node 24) and
 * a real Learning Record Store, both on loopback. Run through test/e2e/run.sh,
 * which installs both into a cache folder and builds the package first.
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
	// Each n8n CLI call starts the whole application (about 7-10 s).
	testTimeout: 300_000,
	// One n8n at a time: 2 cores, and every instance runs migrations on start.
	maxWorkers: 1,
	verbose: true,
};
