/**
 * The editor test: a real n8n 2.x server with the built package, driven in
 * Debian's Chromium through playwright-core. Run through test/ui/run.sh
 * (`npm run test:ui`), which installs Chromium and n8n and builds the package
 * first.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	// *.ui.spec.ts, so that the unit configuration (*.test.ts) does not pick it up.
	testMatch: ['<rootDir>/test/ui/**/*.ui.spec.ts'],
	// dist/ holds a copy of package.json, which jest would see as a second module of the same name.
	modulePathIgnorePatterns: ['<rootDir>/dist/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	testTimeout: 180_000,
	// One browser and one n8n; the steps run in order and share the page.
	maxWorkers: 1,
	verbose: true,
};
