/** Unit, engine and sandbox tests. The end-to-end suite has its own config (test/e2e). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	modulePathIgnorePatterns: ['<rootDir>/dist/'],
	setupFilesAfterEnv: ['<rootDir>/test/setup/isolateNock.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	// Generous: the first test of a file also compiles and loads n8n's engine, slow on a busy 2-core machine.
	testTimeout: 120000,
};
