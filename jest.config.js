/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Type checking is `npm run check`'s job; transpiling alone keeps the suite fast on two cores.
  transform: { '^.+\\.ts$': 'ts-jest' },
  setupFiles: [
    '<rootDir>/test/harness/quiet-temporal-runtime.ts',
    '<rootDir>/test/harness/worker-isolation.ts',
  ],
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  testTimeout: 90_000,
  verbose: true,
};
