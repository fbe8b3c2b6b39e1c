/** Unit, engine and sandbox tests. The end-to-end suite has its own config (test/e2e). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	modulePathIgnorePatterns: ['<rootDir>/dist/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	testTimeout: 30000,
};
